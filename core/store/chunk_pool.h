// ChunkPool: the memory of one store's row arenas (RowArena), carved from
// 2 MiB blocks so that a large store's rows sit on huge pages
// (core/base/huge_pages.h): its stripes' arenas each grow in chunks of a few
// KiB to a few MiB, too small and scattered for the kernel to back with huge
// pages on its own, and a lookup of a row at random then misses the TLB. The
// first block stays on ordinary pages, so a small store (a test's, a node of a
// large simulated cluster) commits no huge page it would barely use; every
// later block, and a chunk larger than half a block (its own allocation),
// is advised huge before it is touched. Chunks live until the pool does
// (arenas reuse their freed rows, never their chunks).
// Thread-safety: Allocate is safe to call concurrently (the stripes' arenas
// share one pool, each under its own stripe lock).
#pragma once

#include <cstddef>
#include <vector>

#include "core/store/spin_lock.h"

namespace augur {

class ChunkPool {
 public:
  ChunkPool() = default;
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;
  ~ChunkPool();

  // An uninitialised chunk of `floats` floats, 64-byte aligned.
  float* Allocate(size_t floats);
  // Bytes taken from the system so far (blocks and large chunks).
  size_t reserved_bytes() const { return reserved_; }

 private:
  char* NewBlock(size_t bytes);  // REQUIRES: lock_ held

  SpinLock lock_;
  std::vector<void*> blocks_;
  char* cursor_ = nullptr;  // the current block's free part
  size_t left_ = 0;
  size_t reserved_ = 0;
};

}  // namespace augur

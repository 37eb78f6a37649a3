// RowArena: memory for one store stripe's rows, in chunks that never move.
//
// A row, once allocated, stays at the same address until it is freed, even
// as the arena grows (unlike one growing vector), so a pointer into it stays
// valid for as long as its entry exists: what the store's direct access
// (ParamStore::ResolveBatch) relies on. Chunks double in size from
// kFirstChunkFloats up to kMaxChunkFloats (or one row's size, if larger); a
// row never spans two chunks. Rows start on a cache line (chunks are
// 64-byte aligned, rows rounded up to 16 floats), so a row of 32 floats
// touches two lines, not three. Freed rows are reused for rows of the same
// size.
// Chunks come from a ChunkPool (the store's, shared by its stripes, which
// puts a large store's rows on huge pages), set before the first Allocate,
// and live as long as it does.
// A row's handle (RowArena::Ref) is a chunk index and an offset in 64 bits.
// Not thread-safe: the owner (a store stripe) serialises access.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/base/check.h"
#include "core/store/chunk_pool.h"

namespace augur {

class RowArena {
 public:
  using Ref = uint64_t;  // chunk << 32 | offset within the chunk
  static constexpr size_t kFirstChunkFloats = 1024;
  static constexpr size_t kMaxChunkFloats = size_t{1} << 20;

  RowArena() = default;
  RowArena(const RowArena&) = delete;
  RowArena& operator=(const RowArena&) = delete;
  // Where the chunks come from. REQUIRES: called before Allocate; `pool`
  // outlives the arena.
  void SetPool(ChunkPool* pool) { pool_ = pool; }

  // A zero-filled row of `floats` floats.
  Ref Allocate(uint32_t floats) {
    floats = Padded(floats);
    Ref ref;
    auto it = free_by_size_.find(floats);
    if (it != free_by_size_.end() && !it->second.empty()) {
      ref = it->second.back();
      it->second.pop_back();
    } else {
      if (chunks_.empty() || used_ + floats > chunk_floats_.back()) NewChunk(floats);
      ref = (Ref{chunks_.size() - 1} << 32) | used_;
      used_ += floats;
    }
    std::fill_n(At(ref), floats, 0.0f);
    return ref;
  }
  // `floats` as given to Allocate.
  void Free(Ref ref, uint32_t floats) { free_by_size_[Padded(floats)].push_back(ref); }
  float* At(Ref ref) const { return chunks_[ref >> 32] + (ref & 0xffffffffu); }

 private:
  static constexpr uint32_t kLineFloats = 16;  // 64 bytes
  static uint32_t Padded(uint32_t floats) {
    return (floats + kLineFloats - 1) / kLineFloats * kLineFloats;
  }
  void NewChunk(uint32_t floats) {
    const size_t next = chunk_floats_.empty() ? kFirstChunkFloats
                                              : std::min(chunk_floats_.back() * 2, kMaxChunkFloats);
    const size_t size = std::max<size_t>(next, floats);
    AUGUR_CHECK(pool_ != nullptr, "RowArena: SetPool before the first Allocate");
    chunks_.push_back(pool_->Allocate(size));
    chunk_floats_.push_back(size);
    used_ = 0;
  }

  ChunkPool* pool_ = nullptr;
  std::vector<float*> chunks_;  // the pool's
  std::vector<size_t> chunk_floats_;
  size_t used_ = 0;  // floats used in the last chunk
  std::unordered_map<uint32_t, std::vector<Ref>> free_by_size_;
};

}  // namespace augur

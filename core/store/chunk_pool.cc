#include "core/store/chunk_pool.h"

#include <cstdlib>
#include <new>

#include "core/base/huge_pages.h"

namespace augur {

ChunkPool::~ChunkPool() {
  for (void* b : blocks_) std::free(b);
}

char* ChunkPool::NewBlock(size_t bytes) {
  bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* b = std::aligned_alloc(kHugePageBytes, bytes);
  if (b == nullptr) throw std::bad_alloc();
  if (!blocks_.empty()) AdviseHugePages(b, bytes);  // the first stays on small pages
  blocks_.push_back(b);
  reserved_ += bytes;
  return static_cast<char*>(b);
}

float* ChunkPool::Allocate(size_t floats) {
  const size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
  LockGuard<SpinLock> guard(lock_);
  if (bytes > kHugePageBytes / 2) return reinterpret_cast<float*>(NewBlock(bytes));
  if (bytes > left_) {
    cursor_ = NewBlock(kHugePageBytes);
    left_ = kHugePageBytes;
  }
  float* chunk = reinterpret_cast<float*>(cursor_);
  cursor_ += bytes;
  left_ -= bytes;
  return chunk;
}

}  // namespace augur

// Huge pages for large tables read at random: a row lookup in a table of
// tens of MB on 4 KiB pages misses the TLB about once per row, and the page
// walk costs as much as a cache miss. AdviseHugePages asks the kernel
// (madvise(MADV_HUGEPAGE)) to back the 2 MiB-aligned extents inside
// [data, data + bytes) with transparent huge pages when they are first
// touched; call it before writing the memory. A hint: where transparent huge
// pages are off (or `never`) nothing changes, and nothing fails.
// Measured (docs/measurements/2026-12-07-evening-wv-paths-and-sliced-wakeups.md):
// a one-node kge epoch (50k WordNet triples, dim 50) 0.171-0.175 s on 4 KiB
// pages, 0.143-0.149 s on huge pages.
// Thread-safety: a system call on memory the caller owns.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace augur {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

inline void AdviseHugePages(void* data, size_t bytes) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const uintptr_t last = (begin + bytes) & ~(kHugePageBytes - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

// Makes *v n copies of value, its memory advised huge before it is written.
template <typename T>
void AssignOnHugePages(std::vector<T>* v, size_t n, const T& value) {
  v->reserve(n);
  AdviseHugePages(v->data(), n * sizeof(T));
  v->assign(n, value);
}

}  // namespace augur

// RowHints: where a worker last found each id's row in the store (a matrix
// row, a column), for prefetch hints only. On several nodes a step takes its
// rows' stripe locks, whose fences keep one step's cache misses from
// overlapping the next one's; loading the rows of a step a few steps ahead
// from where they were last time gives that overlap back. A direct-mapped
// table of at most kMaxSlots pointers: ids that share a slot overwrite each
// other's hint, and a row that moved since leaves a stale one. Either way a
// prefetch of it only loads a useless line (a prefetch never faults); the
// step itself always finds its rows under their locks.
// Not thread-safe: one per worker.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace augur {

class RowHints {
 public:
  static constexpr uint64_t kMaxSlots = uint64_t{1} << 18;  // 2 MB of pointers

  // For ids in [0, ids).
  explicit RowHints(uint64_t ids)
      : slots_(std::bit_ceil(std::clamp<uint64_t>(ids, 1, kMaxSlots)), nullptr),
        mask_(slots_.size() - 1) {}

  void Set(uint64_t id, const float* row) { slots_[id & mask_] = row; }
  // The row last Set for `id` or for an id sharing its slot; null if none.
  const float* Get(uint64_t id) const { return slots_[id & mask_]; }
  size_t slots() const { return slots_.size(); }
  // Starts loading, for writing, the `bytes` at Get(id) (nothing if null).
  void Prefetch(uint64_t id, uint32_t bytes) const {
    const char* row = reinterpret_cast<const char*>(Get(id));
    if (row == nullptr) return;
    for (uint32_t b = 0; b < bytes; b += 64) __builtin_prefetch(row + b, 1);
  }

 private:
  std::vector<const float*> slots_;
  uint64_t mask_;
};

}  // namespace augur

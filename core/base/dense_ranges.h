// DenseRanges: the value layout's ranges of at most `max_keys` keys, and the
// place of a key in them (which range, how far into it). The workloads' keys
// are such ranges (entities, relations, words, matrix rows and columns), so
// per-key tables indexed by place (HeldBitmap's bits, DirectRowCache's row
// pointers) replace hash lookups for them. Immutable; any thread.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/types.h"
#include "core/base/value_layout.h"

namespace augur {

class DenseRanges {
 public:
  struct Place {
    uint32_t range;   // index into the kept ranges; kNone: in none of them
    uint64_t offset;  // key - the range's begin
  };
  static constexpr uint32_t kNone = UINT32_MAX;

  DenseRanges(const ValueLayout& layout, uint64_t max_keys) {
    for (const ValueLayout::Range& r : layout.ranges())
      if (r.end - r.begin <= max_keys) ranges_.push_back(r);
  }

  size_t size() const { return ranges_.size(); }
  uint64_t keys(size_t range) const { return ranges_[range].end - ranges_[range].begin; }

  Place Locate(Key key) const {
    for (uint32_t i = 0; i < ranges_.size(); ++i)  // few ranges: linear, as ValueLayout::Length
      if (key >= ranges_[i].begin && key < ranges_[i].end) return {i, key - ranges_[i].begin};
    return {kNone, 0};
  }

 private:
  std::vector<ValueLayout::Range> ranges_;
};

}  // namespace augur

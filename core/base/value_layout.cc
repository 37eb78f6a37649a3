#include "core/base/value_layout.h"

#include <algorithm>

namespace augur {

Result<ValueLayout> ValueLayout::Create(uint32_t default_length, std::vector<Range> ranges) {
  if (default_length == 0) return Status::Error("value layout: default length must be > 0");
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (size_t i = 0; i < ranges.size(); ++i) {
    const Range& r = ranges[i];
    if (r.length == 0 || r.begin >= r.end) {
      return Status::Error("value layout: range [" + std::to_string(r.begin) + ", " +
                           std::to_string(r.end) + ") needs begin < end and length > 0");
    }
    if (i > 0 && ranges[i - 1].end > r.begin) {
      return Status::Error("value layout: ranges starting at " +
                           std::to_string(ranges[i - 1].begin) + " and " + std::to_string(r.begin) +
                           " overlap");
    }
  }
  ValueLayout layout(default_length);
  layout.ranges_ = std::move(ranges);
  return layout;
}

uint32_t ValueLayout::MaxLength() const {
  uint32_t m = default_length_;
  for (const Range& r : ranges_) m = std::max(m, r.length);
  return m;
}

}  // namespace augur

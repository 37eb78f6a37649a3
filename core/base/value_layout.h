// ValueLayout: how many floats each key's value has.
//
// Values are float vectors whose length depends on the key range, e.g. entity
// embeddings of dim 2d and relation embeddings of dim d. Ranges are half-open
// [begin, end) and must not overlap; keys outside every range get the default
// length. Immutable after construction; safe to share across threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"

namespace augur {

class ValueLayout {
 public:
  struct Range {
    Key begin;
    Key end;  // exclusive
    uint32_t length;
  };

  // A layout where every key has `default_length` floats.
  explicit ValueLayout(uint32_t default_length = 1) : default_length_(default_length) {}

  // Validates: lengths > 0, begin < end, no overlaps.
  static Result<ValueLayout> Create(uint32_t default_length, std::vector<Range> ranges);

  uint32_t Length(Key key) const {
    for (const Range& r : ranges_) {  // few ranges in practice; linear is fastest
      if (key >= r.begin && key < r.end) return r.length;
    }
    return default_length_;
  }
  uint32_t default_length() const { return default_length_; }
  const std::vector<Range>& ranges() const { return ranges_; }
  uint32_t MaxLength() const;

 private:
  uint32_t default_length_;
  std::vector<Range> ranges_;  // sorted by begin
};

}  // namespace augur

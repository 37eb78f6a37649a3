// ExampleGrads: a scratch map key -> gradient row for the few keys of one
// training example (a kge triple and its negatives). A key that repeats within
// the example shares its row. Used by the single-node baselines, which apply
// each example's rows at once, and by the PS jobs, which add each example's
// rows to their batch (BatchRows::AddGradient).
// Returned rows stay valid until Clear(). Not thread-safe: one per thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/base/check.h"
#include "core/base/types.h"

namespace augur {

class ExampleGrads {
 public:
  // Rows never move: up to max_keys distinct keys per example.
  ExampleGrads(uint32_t row_length, size_t max_keys)
      : row_(row_length), data_(size_t{row_length} * max_keys) {}
  void Clear() {
    keys_.clear();
    tags_.clear();
  }
  // The zero-initialised gradient row of `key` (merged when a key repeats).
  // `tag` is kept with a new key for tag(i): a caller's handle on the key's
  // row elsewhere (a batch slot), so applying the gradient needs no lookup.
  float* Row(Key key, uint32_t tag = 0) {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return &data_[i * row_];
    AUGUR_CHECK(keys_.size() * row_ < data_.size(), "more keys in one example than declared");
    keys_.push_back(key);
    tags_.push_back(tag);
    float* g = &data_[(keys_.size() - 1) * row_];
    std::fill(g, g + row_, 0.0f);
    return g;
  }
  size_t size() const { return keys_.size(); }
  Key key(size_t i) const { return keys_[i]; }
  uint32_t tag(size_t i) const { return tags_[i]; }
  const float* grad(size_t i) const { return &data_[i * row_]; }

 private:
  uint32_t row_;
  std::vector<Key> keys_;
  std::vector<uint32_t> tags_;  // by key, as keys_
  std::vector<float> data_;
};

}  // namespace augur

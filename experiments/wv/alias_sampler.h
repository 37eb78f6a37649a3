// AliasSampler: O(1) draws from a fixed discrete distribution (Vose's alias
// method), e.g. word2vec's unigram^0.75 negatives. Immutable after
// construction; share freely (each caller brings its own Rng).
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/check.h"
#include "core/base/rng.h"

namespace augur {

class AliasSampler {
 public:
  // REQUIRES: weights non-empty, all >= 0, sum > 0.
  explicit AliasSampler(const std::vector<double>& weights)
      : prob_(weights.size()), alias_(weights.size(), 0) {
    const size_t n = weights.size();
    AUGUR_CHECK(n > 0, "empty distribution");
    double sum = 0;
    for (double w : weights) sum += w;
    AUGUR_CHECK(sum > 0, "distribution has no mass");
    std::vector<double> scaled(n);
    std::vector<uint32_t> small, large;
    for (size_t i = 0; i < n; ++i) {
      scaled[i] = weights[i] * static_cast<double>(n) / sum;
      (scaled[i] < 1.0 ? small : large).push_back(static_cast<uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const uint32_t s = small.back(), l = large.back();
      small.pop_back();
      prob_[s] = scaled[s];
      alias_[s] = l;
      scaled[l] -= 1.0 - scaled[s];
      if (scaled[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
    for (uint32_t i : large) prob_[i] = 1.0;
    for (uint32_t i : small) prob_[i] = 1.0;
  }

  uint32_t Draw(Rng& rng) const {
    const uint32_t i = static_cast<uint32_t>(rng.Below(prob_.size()));
    return rng.Uniform() < prob_[i] ? i : alias_[i];
  }
  size_t size() const { return prob_.size(); }

 private:
  std::vector<double> prob_;
  std::vector<uint32_t> alias_;
};

}  // namespace augur

// ZipfSampler: draws ranks 0..n-1 with P(r) proportional to 1/(r+1)^skew.
//
// Inverse-CDF over a precomputed table (n doubles): exact, simple, and fast
// enough for workload generation. Immutable after construction; share freely.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/base/rng.h"

namespace augur {

class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double skew) : cdf_(n) {
    double sum = 0;
    for (uint64_t r = 0; r < n; ++r) {
      sum += std::pow(static_cast<double>(r + 1), -skew);
      cdf_[r] = sum;
    }
    for (double& c : cdf_) c /= sum;
  }
  uint64_t Draw(Rng& rng) const {
    const double u = rng.Uniform();
    auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
    return std::min<uint64_t>(it - cdf_.begin(), cdf_.size() - 1);
  }
  double Probability(uint64_t r) const { return cdf_[r] - (r == 0 ? 0.0 : cdf_[r - 1]); }
  uint64_t size() const { return cdf_.size(); }

 private:
  std::vector<double> cdf_;
};

}  // namespace augur

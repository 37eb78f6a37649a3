#include "core/protocol/replica_delta_bound.h"

#include <algorithm>
#include <cmath>

namespace augur {

bool ReplicaDeltaBound::Bound(float* delta, uint32_t len) {
  if (!enabled() || len == 0) return false;
  double sq = 0;
  for (uint32_t i = 0; i < len; ++i) sq += static_cast<double>(delta[i]) * delta[i];
  if (sq == 0 || !std::isfinite(sq)) return false;  // polls; a non-finite delta is the guard's
  const double rms = std::sqrt(sq / len);
  // Cumulative mean during the warm-up, then an exponential one over about
  // `warmup` flushes: it follows the gradients as training converges.
  ++seen_;
  const double weight = 1.0 / static_cast<double>(std::min<uint64_t>(seen_, options_.warmup));
  const bool warm = seen_ > options_.warmup;
  const double limit = options_.factor * mean_;
  mean_ += weight * (rms - mean_);
  if (!warm || rms <= limit) return false;
  const auto scale = static_cast<float>(limit / rms);
  for (uint32_t i = 0; i < len; ++i) delta[i] *= scale;
  return true;
}

}  // namespace augur

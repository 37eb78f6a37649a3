// ApplyUpdateVectorized: the same update as core's ApplyUpdate
// (core/store/optimizer.h) with the AdaGrad case written in Eigen, so the
// square roots are vectorised (std::sqrt in a plain loop is not, because of
// errno). Used by the single-node baselines on their hot path; identical
// results up to float rounding. Pure function; thread-safe.
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "core/store/optimizer.h"

namespace augur {

inline void ApplyUpdateVectorized(const OptimizerConfig& o, float* value, float* state,
                                  const float* u, uint32_t len) {
  if (o.kind != OptimizerKind::kAdaGrad) {
    ApplyUpdate(o, value, state, u, len);
    return;
  }
  Eigen::Map<Eigen::ArrayXf> v(value, len), acc(state, len);
  Eigen::Map<const Eigen::ArrayXf> g(u, len);
  acc += g.square();
  v -= o.learning_rate * g / (acc + o.epsilon).sqrt();
}

}  // namespace augur

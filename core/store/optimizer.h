// Optimizer: how a push changes a value, applied where the copy lives (REFERENCE §4).
//
//   kSum      value += update                       (no state; the default)
//   kSgd      value -= lr * gradient                (no state)
//   kAdaGrad  acc += g*g; value -= lr * g / sqrt(acc + eps)   (one state row: acc)
// With kSgd/kAdaGrad, Worker::Push carries gradients and the optimizer state
// is kept beside the value in the store (never smuggled into the value), moves
// with the value on relocation, and is written to checkpoints.
// Plain value type; ApplyUpdate is a pure function.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace augur {

enum class OptimizerKind : uint8_t { kSum = 0, kSgd = 1, kAdaGrad = 2 };

struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::kSum;
  float learning_rate = 0.1f;
  float initial_accumulator = 0.0f;  // AdaGrad: starting value of acc
  float epsilon = 1e-10f;

  // Floats of optimizer state per value float.
  uint32_t StateRows() const { return kind == OptimizerKind::kAdaGrad ? 1 : 0; }
};

Result<OptimizerKind> ParseOptimizerKind(const std::string& name);
const char* OptimizerKindName(OptimizerKind kind);

// Applies one update to `len` floats. `state` has StateRows()*len floats.
inline void ApplyUpdate(const OptimizerConfig& o, float* value, float* state, const float* u,
                        uint32_t len) {
  switch (o.kind) {
    case OptimizerKind::kSum:
      for (uint32_t i = 0; i < len; ++i) value[i] += u[i];
      return;
    case OptimizerKind::kSgd:
      for (uint32_t i = 0; i < len; ++i) value[i] -= o.learning_rate * u[i];
      return;
    case OptimizerKind::kAdaGrad:
      for (uint32_t i = 0; i < len; ++i) {
        state[i] += u[i] * u[i];
        value[i] -= o.learning_rate * u[i] / std::sqrt(state[i] + o.epsilon);
      }
      return;
  }
}

// Squared norm of the change ApplyUpdate(o, value, state, u, len) makes to
// the value (AdaGrad: one step of u from the given state).
inline float UpdateNormSq(const OptimizerConfig& o, const float* state, const float* u,
                          uint32_t len) {
  float sum = 0;
  for (uint32_t i = 0; i < len; ++i) {
    float step = u[i];
    if (o.kind == OptimizerKind::kSgd) step *= o.learning_rate;
    if (o.kind == OptimizerKind::kAdaGrad)
      step *= o.learning_rate / std::sqrt(state[i] + u[i] * u[i] + o.epsilon);
    sum += step * step;
  }
  return sum;
}

}  // namespace augur

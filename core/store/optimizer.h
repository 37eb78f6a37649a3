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

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/base/status.h"
#include "core/store/row_kernels.h"

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
// value, state and u must not overlap (the row kernels' loops are
// vectorised on that promise; row_kernels.h).
inline void ApplyUpdate(const OptimizerConfig& o, float* value, float* state, const float* u,
                        uint32_t len) {
  switch (o.kind) {
    case OptimizerKind::kSum:
      return AddRow(value, u, len);
    case OptimizerKind::kSgd:
      return AddScaledRow(value, -o.learning_rate, u, len);  // v - lr*g, bit for bit
    case OptimizerKind::kAdaGrad:
      return AdaGradRow(value, state, u, nullptr, o.learning_rate, o.epsilon, len);
  }
}

// The gradient a plain SGD step of `learning_rate` took from `before` to
// `after` ((before - after) / learning_rate): what a worker that stepped a
// row itself pushes, so that the store's optimizer and a replica's delta see
// the step (BatchRows::PushSgdSteps, Worker::StepHeldPair).
inline void SgdStepGradient(const float* before, const float* after, size_t len,
                            float learning_rate, float* gradient) {
  ScaledDifferenceRow(gradient, before, after, 1.0f / learning_rate, len);
}

// A delta: several updates of one value added up, in (1 + StateRows()) * len
// floats: the sum of the updates, then (AdaGrad) the sum of their squares.
// What a push carries (a worker's batch sums each key's gradients over its
// examples) and what a replica sends its main copy (its pushes since the last
// sync). ApplyDelta applies it as one step whose accumulator grows by sum g^2,
// as the separate steps would have grown it, and not by (sum g)^2: a summed
// gradient applied as one AdaGrad step inflates a hot row's accumulator by
// the number of updates it sums (when they agree) and so slows that row for
// the rest of training (kge's relations: a tenth of a batch's triples each).
inline void AccumulateDelta(const OptimizerConfig& o, const float* u, uint32_t len, float* delta) {
  AddRow(delta, u, len);
  if (o.kind == OptimizerKind::kAdaGrad) AddSquaresRow(delta + len, u, len);
}

// The delta of one update u: u, then (AdaGrad) its squares.
inline void UpdateToDelta(const OptimizerConfig& o, const float* u, uint32_t len, float* delta) {
  std::memcpy(delta, u, size_t{len} * sizeof(float));
  if (o.kind == OptimizerKind::kAdaGrad) SquaresRow(delta + len, u, len);
}

// Adds delta `d` into `sum` (both (1 + StateRows()) * len floats).
inline void AddDelta(const OptimizerConfig& o, const float* d, uint32_t len, float* sum) {
  AddRow(sum, d, len * (1 + o.StateRows()));
}

// Applies a delta built by AccumulateDelta (kSum and kSgd: as one update).
// value, state and delta must not overlap (vectorised as ApplyUpdate).
inline void ApplyDelta(const OptimizerConfig& o, float* value, float* state, const float* delta,
                       uint32_t len) {
  if (o.kind != OptimizerKind::kAdaGrad) return ApplyUpdate(o, value, state, delta, len);
  AdaGradRow(value, state, delta, delta + len, o.learning_rate, o.epsilon, len);
}

}  // namespace augur

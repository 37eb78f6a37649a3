// What a real workload's task says about its rows, written once for kge, wv
// and mf: the layout of its two key ranges, its server-side optimizer, and
// the seeded initial value of a row. Pure; any thread.
#pragma once

#include <cstdint>
#include <span>

#include "core/base/check.h"
#include "core/base/rng.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/optimizer.h"

namespace augur {

// Keys [0, first) and [second_base, second_base + second), each `length`
// floats. Stops the process (AUGUR_CHECK) on an invalid layout, naming `task`.
inline ValueLayout TwoRangeLayout(const char* task, uint32_t length, Key first, Key second_base,
                                  Key second) {
  Result<ValueLayout> l = ValueLayout::Create(
      length, {{0, first, length}, {second_base, second_base + second, length}});
  AUGUR_CHECK(l.ok(), "%s layout: %s", task, l.status().message().c_str());
  return *l;
}

// The optimizer the main copies apply to pushed gradients.
inline OptimizerConfig TaskOptimizer(OptimizerKind kind, float learning_rate) {
  OptimizerConfig o;
  o.kind = kind;
  o.learning_rate = learning_rate;
  return o;
}

// A row's initial value, uniform in [-scale, scale), drawn from a generator
// seeded by (seed, key) alone: every node, backend and baseline that creates
// the key gets the same row, wherever and whenever it is created.
inline void InitUniformRow(uint64_t seed, Key key, double scale, std::span<float> row) {
  Rng rng(DeriveSeed(seed, key, 0x1417));
  for (float& x : row) x = static_cast<float>((2.0 * rng.Uniform() - 1.0) * scale);
}

}  // namespace augur

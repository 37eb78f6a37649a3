// InitUniformRow: a parameter row's initial value, uniform in [-scale, scale),
// drawn from a generator seeded by (seed, key) alone. Every node, backend and
// baseline that creates the key gets the same row, wherever and whenever it
// is created (the tasks' InitRow; the store's initializer). Pure; any thread.
#pragma once

#include <cstdint>
#include <span>

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

inline void InitUniformRow(uint64_t seed, Key key, double scale, std::span<float> row) {
  Rng rng(DeriveSeed(seed, key, 0x1417));
  for (float& x : row) x = static_cast<float>((2.0 * rng.Uniform() - 1.0) * scale);
}

}  // namespace augur

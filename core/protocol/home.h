// Home node of a key: statically computed from the key alone (REFERENCE §1).
//
// A hash of the key (not its range) spreads any key set, dense or sparse,
// evenly over any node count (no power-of-two requirement).
#pragma once

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

inline NodeId HomeNode(Key key, uint32_t num_nodes) {
  return static_cast<NodeId>((static_cast<__uint128_t>(Mix64(key)) * num_nodes) >> 64);
}

}  // namespace augur

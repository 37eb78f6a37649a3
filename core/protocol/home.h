// Home node of a key: statically computed from the key alone (REFERENCE §1).
//
// A hash of the key (not its range) spreads any key set, dense or sparse,
// evenly over any node count (no power-of-two requirement).
#pragma once

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

// `hash` is Mix64(key) (batch callers compute it once per key).
inline NodeId HomeNodeOfHash(uint64_t hash, uint32_t num_nodes) {
  return static_cast<NodeId>((static_cast<__uint128_t>(hash) * num_nodes) >> 64);
}
inline NodeId HomeNode(Key key, uint32_t num_nodes) {
  return HomeNodeOfHash(Mix64(key), num_nodes);
}

}  // namespace augur

// Scenario helpers shared by the protocol tests: a seeded loopback cluster
// with a jittery network, so every seed gives another message interleaving.
#pragma once

#include <cstdint>

#include "core/testing/loopback_cluster.h"

namespace augur::testing {

inline LoopbackOptions JitteryCluster(uint32_t nodes, uint32_t workers, uint64_t seed,
                                      ValueLayout layout = ValueLayout(2)) {
  LoopbackOptions o;
  o.nodes = nodes;
  o.node.workers = workers;
  o.node.layout = std::move(layout);
  o.network.latency_seconds = 5e-6;
  o.network.jitter_seconds = 50e-6;  // >> latency: heavy reordering across senders
  o.network.seed = seed;
  return o;
}

}  // namespace augur::testing

// Scenario helpers shared by the protocol tests: a seeded loopback cluster
// with a jittery network, so every seed gives another message interleaving.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <vector>

#include "backends/loopback/loopback_cluster.h"
#include "core/api/worker.h"

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

// Pulls every key of `expected` (two elements each, both expected to hold the
// key's sum) through `w` and checks it; returns the number of keys checked.
inline uint64_t CheckSums(Worker& w, const std::map<Key, double>& expected) {
  std::vector<Key> keys;
  for (const auto& [key, sum] : expected) keys.push_back(key);
  std::vector<float> out(keys.size() * 2);
  w.Wait(w.Pull(keys, out));
  for (size_t i = 0; i < keys.size(); ++i) {
    CHECK(out[2 * i] == static_cast<float>(expected.at(keys[i])));
    CHECK(out[2 * i + 1] == static_cast<float>(expected.at(keys[i])));
  }
  return keys.size();
}

}  // namespace augur::testing

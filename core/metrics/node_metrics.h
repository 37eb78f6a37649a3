// NodeMetrics: counters one node reports at the end of a run.
//
// The counters are listed once, in counter_list.h, and named here by their
// enumerators. Protocol counters are atomics (NodeCounters) updated with
// relaxed order by workers and the protocol context; Node::Metrics() gives a
// plain copy (MetricsSnapshot). Per-worker access counters live in the Worker
// (no sharing on the hot path) and are summed into the snapshot.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/metrics/counter_list.h"

namespace augur {

// A plain copy of a node's counters (or of their sum over nodes), indexed by
// enumerator: m[NodeCounter::kReplicaSyncs]. Not synchronised: a value.
struct MetricsSnapshot {
  uint64_t& operator[](NodeCounter c) { return node[static_cast<size_t>(c)]; }
  uint64_t operator[](NodeCounter c) const { return node[static_cast<size_t>(c)]; }
  uint64_t& operator[](WorkerCounter c) { return worker[static_cast<size_t>(c)]; }
  uint64_t operator[](WorkerCounter c) const { return worker[static_cast<size_t>(c)]; }
  double& operator[](WorkerSeconds c) { return seconds[static_cast<size_t>(c)]; }
  double operator[](WorkerSeconds c) const { return seconds[static_cast<size_t>(c)]; }

  std::array<uint64_t, kCounterCount<NodeCounter>> node{};
  std::array<uint64_t, kCounterCount<WorkerCounter>> worker{};
  std::array<double, kCounterCount<WorkerSeconds>> seconds{};
  uint64_t lead_count = 0;     // intent signals acted on
  double lead_clocks_sum = 0;  // sum of (start - clock) at action time
  double lead_clocks_p99 = 0;  // max over nodes when summed

  MetricsSnapshot& operator+=(const MetricsSnapshot& o);
  double LocalAccessRatio() const;
};

// A node's protocol counters: any thread may Add or Get, relaxed (each counter
// is a tally, read at the end of a run; no ordering with other memory).
class NodeCounters {
 public:
  void Add(NodeCounter c, uint64_t amount = 1) {
    counts_[static_cast<size_t>(c)].fetch_add(amount, std::memory_order_relaxed);
  }
  uint64_t Get(NodeCounter c) const {
    return counts_[static_cast<size_t>(c)].load(std::memory_order_relaxed);
  }

 private:
  std::array<std::atomic<uint64_t>, kCounterCount<NodeCounter>> counts_{};
};

}  // namespace augur

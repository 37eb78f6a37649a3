// NodeMetrics: counters one node reports at the end of a run.
//
// The counters are listed once, in counter_list.h. Protocol counters are
// atomics updated with relaxed order by workers and the protocol context;
// Node::Metrics() gives a plain copy. Per-worker access counters live in the
// Worker (no sharing on the hot path) and are summed into the snapshot.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/metrics/counter_list.h"

namespace augur {

struct MetricsSnapshot {
#define AUGUR_SNAPSHOT_FIELD(name, doc) uint64_t name = 0;
  AUGUR_NODE_COUNTERS(AUGUR_SNAPSHOT_FIELD)
  AUGUR_WORKER_COUNTERS(AUGUR_SNAPSHOT_FIELD)
#undef AUGUR_SNAPSHOT_FIELD
#define AUGUR_SNAPSHOT_SECONDS(name, doc) double name = 0;
  AUGUR_WORKER_SECONDS(AUGUR_SNAPSHOT_SECONDS)
#undef AUGUR_SNAPSHOT_SECONDS
  uint64_t lead_count = 0;     // intent signals acted on
  double lead_clocks_sum = 0;  // sum of (start - clock) at action time
  double lead_clocks_p99 = 0;  // max over nodes when summed

  MetricsSnapshot& operator+=(const MetricsSnapshot& o);
  double LocalAccessRatio() const {
    const uint64_t total = local_accesses + remote_accesses;
    return total == 0 ? 1.0 : static_cast<double>(local_accesses) / static_cast<double>(total);
  }
};

struct NodeCounters {
#define AUGUR_ATOMIC_COUNTER(name, doc) std::atomic<uint64_t> name{0};
  AUGUR_NODE_COUNTERS(AUGUR_ATOMIC_COUNTER)
#undef AUGUR_ATOMIC_COUNTER
};

}  // namespace augur

// NodeMetrics: counters one node reports at the end of a run.
//
// Counters are atomics updated with relaxed order by workers and the protocol
// context; Snapshot() gives a plain copy. Per-worker access counters live in
// the Worker (no sharing on the hot path) and are summed into the snapshot.
#pragma once

#include <atomic>
#include <cstdint>

namespace augur {

struct MetricsSnapshot {
  uint64_t messages_sent = 0;
  uint64_t bytes_sent = 0;
  uint64_t messages_received = 0;
  uint64_t bytes_received = 0;
  uint64_t local_accesses = 0;   // key accesses served by the local store
  uint64_t remote_accesses = 0;  // key accesses that needed a message
  uint64_t intents = 0;          // Intent() calls
  uint64_t intent_keys = 0;      // keys named in them
  uint64_t relocations = 0;      // main copies handed over by this node
  uint64_t replicas_created = 0;
  uint64_t replicas_dropped = 0;
  uint64_t replica_syncs = 0;      // replica deltas flushed to their main copy
  uint64_t replica_polls = 0;      // replicas synced with a zero delta (key only)
  uint64_t replica_clips = 0;      // replica flushes clipped (replica_delta_bound.h)
  uint64_t replica_deferrals = 0;  // replicas a timer round skipped (significance filter)
  uint64_t sync_rounds = 0;        // timer sync rounds started (flow control may skip periods)
  uint64_t replica_refreshes = 0;  // fresh rows sent to holders by sync rounds
  uint64_t forwards = 0;           // request keys forwarded (stale location)
  uint64_t localize_requests = 0;
  uint64_t late_accesses = 0;         // remote accesses to a key whose intent was announced ahead
  uint64_t unannounced_accesses = 0;  // remote accesses under a same-clock intent (no notice)
  double wait_seconds = 0;     // workers parked for their own operations (summed over workers)
  double barrier_seconds = 0;  // workers parked at barriers (summed over workers)
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
  std::atomic<uint64_t> relocations{0};
  std::atomic<uint64_t> replicas_created{0};
  std::atomic<uint64_t> replicas_dropped{0};
  std::atomic<uint64_t> replica_syncs{0};
  std::atomic<uint64_t> replica_polls{0};
  std::atomic<uint64_t> replica_clips{0};
  std::atomic<uint64_t> replica_deferrals{0};
  std::atomic<uint64_t> sync_rounds{0};
  std::atomic<uint64_t> replica_refreshes{0};
  std::atomic<uint64_t> forwards{0};
  std::atomic<uint64_t> localize_requests{0};
  std::atomic<uint64_t> late_accesses{0};
  std::atomic<uint64_t> unannounced_accesses{0};
  std::atomic<uint64_t> messages_sent{0};
  std::atomic<uint64_t> bytes_sent{0};
  std::atomic<uint64_t> messages_received{0};
  std::atomic<uint64_t> bytes_received{0};
  std::atomic<uint64_t> intents{0};
  std::atomic<uint64_t> intent_keys{0};
};

}  // namespace augur

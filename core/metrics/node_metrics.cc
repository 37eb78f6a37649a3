#include "core/metrics/node_metrics.h"

namespace augur {

MetricsSnapshot& MetricsSnapshot::operator+=(const MetricsSnapshot& o) {
  messages_sent += o.messages_sent;
  bytes_sent += o.bytes_sent;
  messages_received += o.messages_received;
  bytes_received += o.bytes_received;
  local_accesses += o.local_accesses;
  remote_accesses += o.remote_accesses;
  intents += o.intents;
  intent_keys += o.intent_keys;
  relocations += o.relocations;
  replicas_created += o.replicas_created;
  replicas_dropped += o.replicas_dropped;
  replica_syncs += o.replica_syncs;
  replica_polls += o.replica_polls;
  replica_deferrals += o.replica_deferrals;
  replica_clips += o.replica_clips;
  sync_rounds += o.sync_rounds;
  replica_refreshes += o.replica_refreshes;
  forwards += o.forwards;
  localize_requests += o.localize_requests;
  late_accesses += o.late_accesses;
  unannounced_accesses += o.unannounced_accesses;
  wait_seconds += o.wait_seconds;
  barrier_seconds += o.barrier_seconds;
  lead_count += o.lead_count;
  lead_clocks_sum += o.lead_clocks_sum;
  if (o.lead_clocks_p99 > lead_clocks_p99) lead_clocks_p99 = o.lead_clocks_p99;
  return *this;
}

}  // namespace augur

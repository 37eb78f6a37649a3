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
  return *this;
}

}  // namespace augur

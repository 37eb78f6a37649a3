#include "core/metrics/node_metrics.h"

namespace augur {

MetricsSnapshot& MetricsSnapshot::operator+=(const MetricsSnapshot& o) {
#define AUGUR_ADD_FIELD(name, doc) name += o.name;
  AUGUR_NODE_COUNTERS(AUGUR_ADD_FIELD)
  AUGUR_WORKER_COUNTERS(AUGUR_ADD_FIELD)
  AUGUR_WORKER_SECONDS(AUGUR_ADD_FIELD)
#undef AUGUR_ADD_FIELD
  lead_count += o.lead_count;
  lead_clocks_sum += o.lead_clocks_sum;
  if (o.lead_clocks_p99 > lead_clocks_p99) lead_clocks_p99 = o.lead_clocks_p99;
  return *this;
}

}  // namespace augur

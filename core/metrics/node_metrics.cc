#include "core/metrics/node_metrics.h"

namespace augur {

MetricsSnapshot& MetricsSnapshot::operator+=(const MetricsSnapshot& o) {
  for (size_t i = 0; i < node.size(); ++i) node[i] += o.node[i];
  for (size_t i = 0; i < worker.size(); ++i) worker[i] += o.worker[i];
  for (size_t i = 0; i < seconds.size(); ++i) seconds[i] += o.seconds[i];
  lead_count += o.lead_count;
  lead_clocks_sum += o.lead_clocks_sum;
  if (o.lead_clocks_p99 > lead_clocks_p99) lead_clocks_p99 = o.lead_clocks_p99;
  return *this;
}

double MetricsSnapshot::LocalAccessRatio() const {
  const uint64_t local = (*this)[WorkerCounter::kLocalAccesses];
  const uint64_t total = local + (*this)[WorkerCounter::kRemoteAccesses];
  return total == 0 ? 1.0 : static_cast<double>(local) / static_cast<double>(total);
}

}  // namespace augur

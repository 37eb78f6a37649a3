#include "backends/loopback/network_model.h"

#include <algorithm>

namespace augur {

NetworkModel::NetworkModel(uint32_t nodes, NetworkModelOptions options)
    : options_(options),
      nodes_(nodes),
      tx_free_(nodes, 0),
      rx_free_(nodes, 0),
      last_delivery_(static_cast<size_t>(nodes) * nodes, 0),
      rng_(options.seed) {}

double NetworkModel::Deliver(NodeId from, NodeId to, uint64_t bytes, double now) {
  const double jitter = options_.jitter_seconds > 0 ? rng_.Uniform() * options_.jitter_seconds : 0;
  double& last = last_delivery_[static_cast<size_t>(from) * nodes_ + to];
  double at;
  if (from == to) {
    at = now + options_.latency_seconds + jitter;
  } else {
    const double wire = static_cast<double>(bytes) / options_.bandwidth_bytes_per_second;
    const double tx = std::max(now, tx_free_[from]) + wire;
    tx_free_[from] = tx;
    at = std::max(tx + options_.latency_seconds + jitter, rx_free_[to]) + wire;
    rx_free_[to] = at;
  }
  at = std::max(at, last);
  last = at;
  return at;
}

}  // namespace augur

// NetworkModel: the loopback runtime's analytic network (DESIGN.md §1).
//
// A message of B bytes from a to b sent at time t:
//   leaves a's NIC at  tx = max(t, tx_free[a]) + B / bandwidth
//   reaches b at       rx = max(tx + latency + jitter, rx_free[b]) + B / bandwidth
//   and never before the previous a->b message (per-pair FIFO).
// jitter is drawn uniformly from [0, jitter_seconds) by a seeded generator, so
// with jitter > 0 messages from different senders interleave in random but
// reproducible orders. Self-sends skip the NICs and arrive after `latency`.
// Not thread-safe: used from the scheduler's single running context.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

struct NetworkModelOptions {
  double bandwidth_bytes_per_second = 1.25e9;  // 10 Gbit/s
  double latency_seconds = 5e-6;
  double jitter_seconds = 0;
  uint64_t seed = 1;
};

class NetworkModel {
 public:
  NetworkModel(uint32_t nodes, NetworkModelOptions options);
  // Returns the delivery time of a message sent now.
  double Deliver(NodeId from, NodeId to, uint64_t bytes, double now);

 private:
  NetworkModelOptions options_;
  uint32_t nodes_;
  std::vector<double> tx_free_;
  std::vector<double> rx_free_;
  std::vector<double> last_delivery_;  // nodes x nodes
  Rng rng_;
};

}  // namespace augur

#include "experiments/jobs/epoch_costs.h"

#include <nlohmann/json.hpp>

namespace augur {

void EpochCosts::Begin(Worker& w) { Mark(w.NodeCpuSeconds(), w.NodeMetrics()); }

void EpochCosts::End(Worker& w) {
  const MetricsSnapshot m = w.NodeMetrics();
  const double cpu = w.NodeCpuSeconds();
  cpu_per_epoch_.push_back(cpu - cpu_);
  messages_per_epoch_.push_back(m[NodeCounter::kMessagesSent] - messages_);
  bytes_per_epoch_.push_back(m[NodeCounter::kBytesSent] - bytes_);
  Mark(cpu, m);
}

void EpochCosts::Mark(double cpu, const MetricsSnapshot& m) {
  cpu_ = cpu;
  messages_ = m[NodeCounter::kMessagesSent];
  bytes_ = m[NodeCounter::kBytesSent];
}

void EpochCostsByNode::Report(nlohmann::json* extra) const {
  std::vector<double> cpu;
  std::vector<uint64_t> messages, bytes;
  for (const EpochCosts& n : nodes_) {
    const size_t epochs = n.cpu_per_epoch_.size();
    if (epochs > cpu.size()) {
      cpu.resize(epochs, 0.0);
      messages.resize(epochs, 0);
      bytes.resize(epochs, 0);
    }
    for (size_t e = 0; e < epochs; ++e) {
      cpu[e] += n.cpu_per_epoch_[e];
      messages[e] += n.messages_per_epoch_[e];
      bytes[e] += n.bytes_per_epoch_[e];
    }
  }
  if (cpu.empty()) return;
  (*extra)["epoch_process_cpu_seconds"] = cpu;
  (*extra)["epoch_messages_sent"] = messages;
  (*extra)["epoch_bytes_sent"] = bytes;
}

}  // namespace augur

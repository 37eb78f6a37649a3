#include "experiments/jobs/epoch_costs.h"

#include <sys/resource.h>

#include <nlohmann/json.hpp>

namespace augur {

double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

void EpochCosts::Begin(const Worker& w) { Mark(ProcessCpuSeconds(), w.NodeMetrics()); }

void EpochCosts::End(const Worker& w) {
  const MetricsSnapshot m = w.NodeMetrics();
  const double cpu = ProcessCpuSeconds();
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

void EpochCosts::Report(nlohmann::json* extra) const {
  if (cpu_per_epoch_.empty()) return;
  (*extra)["epoch_process_cpu_seconds"] = cpu_per_epoch_;
  (*extra)["epoch_messages_sent"] = messages_per_epoch_;
  (*extra)["epoch_bytes_sent"] = bytes_per_epoch_;
}

}  // namespace augur

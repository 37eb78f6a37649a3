#include "experiments/cli/result_summary.h"

#include <nlohmann/json.hpp>
#include <string>

#include "core/metrics/counter_list.h"

namespace augur {

void PrintResultSummary(const nlohmann::json& r, std::FILE* out) {
  if (r.value("backend", "") == "single") {
    std::fprintf(out, "augur single run: %s workload, %d threads, no parameter server\n",
                 r.value("workload", "?").c_str(), r.value("workers_per_node", 0));
  } else {
    std::fprintf(out, "augur %s run: %s workload, policy %s, %d nodes x %d workers\n",
                 r.value("backend", "?").c_str(), r.value("workload", "?").c_str(),
                 r.value("policy", "?").c_str(), r.value("nodes", 0),
                 r.value("workers_per_node", 0));
  }
  const auto& epochs = r["epoch_seconds"];
  for (size_t e = 0; e < epochs.size(); ++e)
    std::fprintf(out, "  epoch %zu: %.6f s\n", e + 1, epochs[e].get<double>());
  // Whose clock the epoch times are: the machine's, SimGrid's, or loopback's model.
  const std::string backend = r.value("backend", "");
  const char* clock = (backend == "tcp" || backend == "single") ? "wall"
                      : backend == "sim"                        ? "simulated"
                                                                : "model";
  std::fprintf(out, "  total %.6f s (%s time), wall %.3f s\n", r.value("total_seconds", 0.0), clock,
               r.value("wall_seconds", 0.0));
  std::fprintf(
      out, "  %.0f samples/s, %llu messages, %.2f MB sent, local accesses %.1f%%\n",
      r.value("samples_per_second", 0.0),
      static_cast<unsigned long long>(r.value(CounterName(NodeCounter::kMessagesSent), 0ull)),
      r.value(CounterName(NodeCounter::kBytesSent), 0ull) / 1e6,
      100.0 * r.value("local_access_ratio", 0.0));
  if (r.contains("verified"))
    std::fprintf(out, "  verified: %s%s\n", r["verified"].get<bool>() ? "yes" : "NO",
                 r.contains("verify_detail")
                     ? (" (" + r["verify_detail"].get<std::string>() + ")").c_str()
                     : "");
  if (r.value("diverged", false)) std::fprintf(out, "  DIVERGED: no quality is reported\n");
}

int DivergenceExitCode(const nlohmann::json& r, int otherwise) {
  if (!r.value("diverged", false)) return otherwise;
  std::fprintf(stderr, "augur: %s\n",
               r.value("divergence", std::string("training diverged")).c_str());
  return 1;
}

}  // namespace augur

#include "experiments/report/run_result.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "augur_git_commit.h"  // generated at build time (experiments/report/git_commit.cmake)

namespace augur {

std::string GitCommit() { return AUGUR_GIT_COMMIT; }

std::string MachineDescription() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  return std::string(host) + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
}

nlohmann::json RunResult::ToJson(const nlohmann::json& config) const {
  nlohmann::json j;
  j["backend"] = backend;
  j["workload"] = config.value("workload", "");
  if (config.contains("policy")) j["policy"] = config["policy"];  // none for `augur single`
  j["nodes"] = config.value("nodes", 0);
  j["workers_per_node"] = config.value("workers_per_node", 0);
  j["epochs"] = epoch_seconds.size();
  j["epoch_seconds"] = epoch_seconds;
  j["total_seconds"] = total_seconds;
  j["wall_seconds"] = wall_seconds;
  j["samples"] = samples;
  j["samples_per_second"] = total_seconds > 0 ? samples / total_seconds : 0.0;
  // Every counter of core/metrics/counter_list.h (result_merge.cc sums them over ranks).
  for (NodeCounter c : AllCounters<NodeCounter>()) j[CounterName(c)] = totals[c];
  for (WorkerCounter c : AllCounters<WorkerCounter>()) j[CounterName(c)] = totals[c];
  for (WorkerSeconds c : AllCounters<WorkerSeconds>()) j[CounterName(c)] = totals[c];
  j["local_access_ratio"] = totals.LocalAccessRatio();
  const uint64_t accesses =
      totals[WorkerCounter::kLocalAccesses] + totals[WorkerCounter::kRemoteAccesses];
  auto share = [&](NodeCounter c) {
    return accesses == 0 ? 0.0 : static_cast<double>(totals[c]) / accesses;
  };
  j["late_access_ratio"] = share(NodeCounter::kLateAccesses);
  j["unannounced_access_ratio"] = share(NodeCounter::kUnannouncedAccesses);
  j["intent_lead_clocks_mean"] =
      totals.lead_count == 0 ? 0.0
                             : totals.lead_clocks_sum / static_cast<double>(totals.lead_count);
  j["intent_lead_clocks_p99"] = totals.lead_clocks_p99;
  nlohmann::json bytes_per_node = nlohmann::json::array();
  for (const MetricsSnapshot& n : per_node) bytes_per_node.push_back(n[NodeCounter::kBytesSent]);
  j["bytes_sent_per_node"] = bytes_per_node;
  if (verified.has_value()) {
    j["verified"] = *verified;
    if (!verify_detail.empty()) j["verify_detail"] = verify_detail;
  }
  j["seed"] = config.value("seed", 0);
  j["config"] = config;
  j["git_commit"] = GitCommit();
  j["machine"] = MachineDescription();
  for (auto& [k, v] : extra->items()) j[k] = v;
  return j;
}

Status WriteResultJson(const std::string& dir, const nlohmann::json& result) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create output directory " + dir + ": " + ec.message());
  const std::string path = dir + "/result.json";
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) return Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
    out << result.dump(2) << "\n";
    if (!out) return Status::Error("error writing " + tmp);
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status::Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
  return Status::Ok();
}

}  // namespace augur

#include "experiments/launch/result_merge.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "core/metrics/counter_list.h"

namespace augur {

namespace {

// A rank's field of the wrong kind (BadField or nlohmann::json::exception,
// which MergeRankResults turns into a Status).
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The count `key` of rank r's result (0 if absent). A float, however large,
// or a negative number is refused rather than converted: converting one out
// of range is undefined (fuzzing found "rank": 7.8e36).
bool IsCount(const nlohmann::json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}
uint64_t CountField(const nlohmann::json& j, const char* key, size_t r) {
  const auto it = j.find(key);
  if (it == j.end()) return 0;
  if (!IsCount(*it))
    throw BadField("result " + std::to_string(r) + ": \"" + key + "\" is not a count");
  return it->get<uint64_t>();
}

// May throw (above) on a field of the wrong type (a rank's result.json is
// input from another process: fuzzing found "rank": [0.5] terminating
// `augur launch`); MergeRankResults turns that into a Status.
Result<nlohmann::json> MergeChecked(const std::vector<nlohmann::json>& ranks) {
  nlohmann::json m = ranks[0];
  m.erase("rank");
  m["backend"] = "tcp";
  m["nodes"] = ranks.size();
  if (m.contains("config") && m["config"].contains("tcp")) m["config"]["tcp"].erase("rank");
  // Every counter is the rank's own node's: the cluster's is their sum.
  // The counters of core/metrics/counter_list.h, as RunResult::ToJson writes them.
  std::vector<const char*> summed = {"samples"};
  // A batch workload's count beside its samples (BatchJob::Report).
  if (ranks.front().contains("samples_in_place")) summed.push_back("samples_in_place");
  for (NodeCounter c : AllCounters<NodeCounter>()) summed.push_back(CounterName(c));
  for (WorkerCounter c : AllCounters<WorkerCounter>()) summed.push_back(CounterName(c));
  std::vector<const char*> summed_seconds;
  for (WorkerSeconds c : AllCounters<WorkerSeconds>()) summed_seconds.push_back(CounterName(c));
  for (const char* k : summed) m[k] = uint64_t{0};
  for (const char* k : summed_seconds) m[k] = 0.0;
  // Intent lead: the ranks' means averaged, the largest p99 (no counts per rank).
  double lead_mean = 0, lead_p99 = 0;
  nlohmann::json bytes_per_node = nlohmann::json::array();
  nlohmann::json per_node = nlohmann::json::array();
  std::optional<bool> verified;
  std::string detail;
  double wall = 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const nlohmann::json& j = ranks[r];
    if (!j.contains("rank") || CountField(j, "rank", r) != r) {
      return Status::Error("result " + std::to_string(r) + " is not rank " + std::to_string(r) +
                           "'s");
    }
    for (const char* k : summed) m[k] = m[k].get<uint64_t>() + CountField(j, k, r);
    for (const char* k : summed_seconds) m[k] = m[k].get<double>() + j.value(k, 0.0);
    lead_mean += j.value("intent_lead_clocks_mean", 0.0) / static_cast<double>(ranks.size());
    lead_p99 = std::max(lead_p99, j.value("intent_lead_clocks_p99", 0.0));
    for (const auto& b : j.value("bytes_sent_per_node", nlohmann::json::array()))
      bytes_per_node.push_back(b);
    nlohmann::json n = {{"rank", r}, {"wall_seconds", j.value("wall_seconds", 0.0)}};
    for (const char* k :
         {CounterName(NodeCounter::kBytesSent), CounterName(NodeCounter::kMessagesSent),
          CounterName(WorkerCounter::kLocalAccesses), CounterName(WorkerCounter::kRemoteAccesses)})
      n[k] = CountField(j, k, r);
    if (j.contains("verified")) {
      n["verified"] = j["verified"];
      verified = verified.value_or(true) && j["verified"].get<bool>();
      if (j.contains("verify_detail"))
        detail += "rank " + std::to_string(r) + ": " + j["verify_detail"].get<std::string>() + "; ";
    }
    // Training diverged on any rank (jobs/divergence_guard.h): the cluster's run did.
    if (j.value("diverged", false) && !m.value("diverged", false)) {
      m["diverged"] = true;
      m["divergence"] = "rank " + std::to_string(r) + ": " + j.value("divergence", std::string());
    }
    per_node.push_back(n);
    wall = std::max(wall, j.value("wall_seconds", 0.0));
  }
  const double local = CountField(m, CounterName(WorkerCounter::kLocalAccesses), 0);
  const double accesses = local + CountField(m, CounterName(WorkerCounter::kRemoteAccesses), 0);
  auto share = [&](NodeCounter c) {
    return accesses == 0 ? 0.0 : static_cast<double>(CountField(m, CounterName(c), 0)) / accesses;
  };
  m["local_access_ratio"] = accesses == 0 ? 1.0 : local / accesses;
  m["late_access_ratio"] = share(NodeCounter::kLateAccesses);
  m["unannounced_access_ratio"] = share(NodeCounter::kUnannouncedAccesses);
  m["intent_lead_clocks_mean"] = lead_mean;
  m["intent_lead_clocks_p99"] = lead_p99;
  const double total = m.value("total_seconds", 0.0);
  m["samples_per_second"] = total > 0 ? m["samples"].get<uint64_t>() / total : 0.0;
  m["wall_seconds"] = wall;
  m["bytes_sent_per_node"] = bytes_per_node;
  m["per_node"] = per_node;
  m.erase("verify_detail");
  // Per-epoch process costs (jobs/epoch_costs.h): the cluster's are the
  // ranks' sums, epoch by epoch; absent unless every rank has as many epochs.
  for (const char* k : {"epoch_process_cpu_seconds", "epoch_messages_sent", "epoch_bytes_sent"}) {
    m.erase(k);
    std::vector<double> sum;
    bool all = true;
    for (const nlohmann::json& j : ranks) {
      if (!j.contains(k) || !j[k].is_array() || (!sum.empty() && j[k].size() != sum.size())) {
        all = false;
        break;
      }
      sum.resize(j[k].size(), 0.0);
      for (size_t e = 0; e < sum.size(); ++e) sum[e] += j[k][e].get<double>();
    }
    if (all && !sum.empty()) m[k] = sum;
  }
  if (verified.has_value()) {
    m["verified"] = *verified;
    if (!detail.empty()) m["verify_detail"] = detail;
  }
  return m;
}

}  // namespace

Result<nlohmann::json> MergeRankResults(const std::vector<nlohmann::json>& ranks) {
  if (ranks.empty()) return Status::Error("no rank results to merge");
  try {
    return MergeChecked(ranks);
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed rank result (a field has the wrong type): ") +
                         e.what());
  } catch (const BadField& e) {
    return Status::Error(std::string("malformed rank result (a field has the wrong type): ") +
                         e.what());
  }
}

Result<std::vector<nlohmann::json>> ReadRankResults(const std::string& dir, uint32_t nodes) {
  std::vector<nlohmann::json> out;
  for (uint32_t r = 0; r < nodes; ++r) {
    const std::string path = dir + "/rank-" + std::to_string(r) + "/result.json";
    std::ifstream in(path);
    if (!in) return Status::Error("rank " + std::to_string(r) + " wrote no result (" + path + ")");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return Status::Error(path + " is not a JSON object");
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace augur

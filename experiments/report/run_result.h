// RunResult: what every run reports, and its result.json form.
//
// Backends fill the measured fields; WriteResultJson() adds provenance (git
// commit, machine) and writes DIR/result.json atomically (temp file + rename).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/metrics/node_metrics.h"
#include "experiments/report/json_value.h"

namespace augur {

struct RunResult {
  std::string backend;
  std::vector<double> epoch_seconds;  // virtual, simulated or wall time per the backend
  double total_seconds = 0;
  double wall_seconds = 0;  // real time the run took on this machine
  uint64_t samples = 0;     // key accesses performed by all workers
  MetricsSnapshot totals;   // summed over nodes
  std::vector<MetricsSnapshot> per_node;
  std::optional<bool> verified;           // set when --verify
  std::string verify_detail;              // first mismatch, if any
  JsonValue extra = JsonValue::Object();  // backend-specific fields

  nlohmann::json ToJson(const nlohmann::json& config) const;
};

std::string GitCommit();
std::string MachineDescription();
// Writes DIR/result.json (creating DIR). Error names the path.
Status WriteResultJson(const std::string& dir, const nlohmann::json& result);

}  // namespace augur

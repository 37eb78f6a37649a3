// SimCosts and the costs file: calibrated compute costs for the simulator.
//
// `augur calibrate --workload W` measures these on the current machine and
// writes them as JSON; `augur sim --costs FILE` reads them back. The costs
// actually used by a run are written into its result.json. Plain values;
// the file functions touch only the named path.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"

namespace augur {

struct SimCosts {
  std::string workload;  // what was calibrated ("" = built-in defaults)
  // Worker compute per key access (replaces the workload's compute-per-key).
  // Negative: keep the workload's own --compute-per-key.
  double seconds_per_key = -1;
  // Protocol-side handling of one incoming message: fixed + per byte.
  double seconds_per_message = 0;
  double seconds_per_message_byte = 0;
  std::string machine;     // where it was calibrated
  std::string git_commit;  // by which build

  // Simulated seconds to handle a message of `bytes`.
  double MessageSeconds(uint64_t bytes) const {
    return seconds_per_message + seconds_per_message_byte * static_cast<double>(bytes);
  }
  nlohmann::json ToJson() const;
  static Result<SimCosts> FromJson(const nlohmann::json& j);
};

// Error names the path and what is wrong with it.
Result<SimCosts> ReadCostsFile(const std::string& path);
Status WriteCostsFile(const std::string& path, const SimCosts& costs);

}  // namespace augur

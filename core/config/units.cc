#include "core/config/units.h"

#include <cmath>
#include <utility>
#include <vector>

#include "core/config/number_text.h"

namespace augur {

namespace {

Result<double> Scale(const std::string& text, const std::string& what,
                     const std::vector<std::pair<std::string, double>>& units) {
  std::string accepted;
  for (const auto& [name, factor] : units) accepted += (accepted.empty() ? "" : ", ") + name;
  size_t used = 0;
  Result<double> number = ParseNumberPrefix(text, &used);
  if (!number.ok() && used == 0)
    return Status::Error("'" + text + "' is not a " + what + " (a non-negative number with unit " +
                         accepted + ")");
  if (!number.ok()) return number.status().WithContext("'" + text + "'");
  const double value = *number;
  if (value < 0)
    return Status::Error("'" + text + "' is not a " + what + " (a non-negative number with unit " +
                         accepted + ")");
  const std::string unit = text.substr(used);
  if (unit.empty()) {
    if (value == 0) return 0.0;
    return Status::Error("'" + text + "' has no unit: write the " + what + " with one of " +
                         accepted);
  }
  for (const auto& [name, factor] : units) {
    if (unit != name) continue;
    const double scaled = value * factor;
    if (value > 0 && !(scaled > 0 && std::isfinite(scaled)))
      return Status::Error("'" + text + "' is out of range once converted to " + units[0].first);
    return scaled;
  }
  return Status::Error("'" + text + "': unknown " + what + " unit '" + unit + "' (use " + accepted +
                       ")");
}

}  // namespace

Result<double> ParseDuration(const std::string& text) {
  return Scale(text, "duration", {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}});
}

Result<double> ParseBandwidth(const std::string& text) {
  return Scale(text, "bandwidth",
               {{"Bps", 1},
                {"KBps", 1e3},
                {"MBps", 1e6},
                {"GBps", 1e9},
                {"bps", 1.0 / 8},
                {"Kbps", 1e3 / 8},
                {"Mbps", 1e6 / 8},
                {"Gbps", 1e9 / 8}});
}

}  // namespace augur

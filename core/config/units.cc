#include "core/config/units.h"

#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace augur {

namespace {

// Splits "12.5Gbps" into 12.5 and "Gbps"; false if no leading number.
bool SplitNumber(const std::string& text, double* value, std::string* unit) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(*value)) return false;
  *unit = std::string(end);
  return true;
}

Result<double> Scale(const std::string& text, const std::string& what,
                     const std::vector<std::pair<std::string, double>>& units) {
  double value = 0;
  std::string unit;
  std::string accepted;
  for (const auto& [name, factor] : units) accepted += (accepted.empty() ? "" : ", ") + name;
  if (!SplitNumber(text, &value, &unit) || value < 0) {
    return Status::Error("'" + text + "' is not a " + what + " (a non-negative number with unit " +
                         accepted + ")");
  }
  if (unit.empty()) {
    if (value == 0) return 0.0;
    return Status::Error("'" + text + "' has no unit: write the " + what + " with one of " +
                         accepted);
  }
  for (const auto& [name, factor] : units)
    if (unit == name) return value * factor;
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

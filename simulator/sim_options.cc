#include "simulator/sim_options.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/config/number_text.h"
#include "core/config/units.h"

namespace augur {

namespace {
// Per-link numbers; a star route crosses two links (host up, host down), so
// the one-way host-to-host latency is twice the link latency.
constexpr NetworkPreset kPresets[] = {
    {"ethernet-10g", 1.25e9, 25e-6,
     "10 Gbit/s Ethernet, 25 us per link (50 us host to host through one switch: kernel TCP)"},
    {"infiniband-100g", 12.5e9, 0.6e-6,
     "100 Gbit/s InfiniBand EDR, 0.6 us per link (1.2 us host to host through one switch)"},
};
}  // namespace

Result<ComputeMode> ParseComputeMode(const std::string& name) {
  if (name == "model") return ComputeMode::kModel;
  if (name == "hybrid") return ComputeMode::kHybrid;
  if (name == "measured") return ComputeMode::kMeasured;
  return Status::Error("--compute '" + name + "' is unknown (expected model|hybrid|measured)");
}

const char* ComputeModeName(ComputeMode mode) {
  switch (mode) {
    case ComputeMode::kModel:
      return "model";
    case ComputeMode::kHybrid:
      return "hybrid";
    case ComputeMode::kMeasured:
      return "measured";
  }
  return "?";
}

Result<NodeFailure> ParseNodeFailure(const std::string& text) {
  const size_t at = text.find('@');
  const std::string usage = "--fail-node '" + text + "': expected NODE@TIME, e.g. 3@1ms or 3@0.5s";
  if (at == std::string::npos || at == 0 || at + 1 == text.size()) return Status::Error(usage);
  NodeFailure f;
  try {
    size_t used = 0;
    const unsigned long node = std::stoul(text.substr(0, at), &used);
    if (used != at || node > UINT32_MAX) return Status::Error(usage);
    f.node = static_cast<NodeId>(node);
  } catch (const std::exception&) {
    return Status::Error(usage);
  }
  Result<double> t = ParseDuration(text.substr(at + 1));
  if (!t.ok()) return Status::Error(usage + " (" + t.status().message() + ")");
  if (*t < 0) return Status::Error(usage + " (time must be >= 0)");
  f.at_seconds = *t;
  return f;
}

const NetworkPreset* FindNetworkPreset(const std::string& name) {
  for (const NetworkPreset& p : kPresets)
    if (name == p.name) return &p;
  return nullptr;
}

std::string NetworkPresetNames() {
  std::string s;
  for (const NetworkPreset& p : kPresets) s += std::string(s.empty() ? "" : ", ") + p.name;
  return s;
}

Result<double> ParseHostSpeed(const std::string& text) {
  const std::string usage = "host speed '" + text + "': expected a number with f, kf, Mf, Gf or Tf";
  size_t used = 0;
  Result<double> number = ParseNumberPrefix(text, &used);
  if (!number.ok() && used == 0) return Status::Error(usage);
  if (!number.ok()) return number.status().WithContext("host speed '" + text + "'");
  const double value = *number;
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit.empty() || unit == "f") scale = 1;
  if (unit == "kf") scale = 1e3;
  if (unit == "Mf") scale = 1e6;
  if (unit == "Gf") scale = 1e9;
  if (unit == "Tf") scale = 1e12;
  if (scale == 0) return Status::Error(usage);
  if (!(value > 0)) return Status::Error("host speed '" + text + "' must be > 0");
  if (!std::isfinite(value * scale))
    return Status::Error("host speed '" + text + "' is out of range once converted to f");
  return value * scale;
}

Status SimOptions::Validate(uint32_t nodes) const {
  const bool builtin = platform == "star" || platform == "fat-tree" || platform == "dragonfly";
  if (!builtin && !std::filesystem::exists(platform))
    return Status::Error("--platform '" + platform +
                         "' is neither star|fat-tree|dragonfly nor an existing XML file");
  if (!preset.empty() && FindNetworkPreset(preset) == nullptr)
    return Status::Error("--preset '" + preset + "' is unknown (expected " + NetworkPresetNames() +
                         ")");
  if (!(link_bandwidth_bytes_per_second > 0)) return Status::Error("--link-bandwidth must be > 0");
  if (!(link_latency_seconds >= 0)) return Status::Error("--link-latency must be >= 0");
  if (!(host_speed_flops > 0)) return Status::Error("--host-speed must be > 0");
  if (host_cores > 4096) return Status::Error("--host-cores must be in [1, 4096]");
  if (shared_cores > 4096) return Status::Error("--shared-cores must be in [1, 4096]");
  if (shared_cores > 0 && platform != "star")
    return Status::Error("--shared-cores needs --platform star (got '" + platform + "')");
  if (fail_node.has_value()) {
    if (fail_node->node >= nodes)
      return Status::Error("--fail-node names node " + std::to_string(fail_node->node) +
                           " but the cluster has nodes 0.." + std::to_string(nodes - 1));
    if (nodes < 2) return Status::Error("--fail-node needs at least 2 nodes");
  }
  if (network_model != "CM02" && network_model != "LV08")
    return Status::Error("--network-model '" + network_model + "' is unknown (expected CM02|LV08)");
  if (nic_lanes < 1 || nic_lanes > 1024) return Status::Error("--nic-lanes must be in [1, 1024]");
  if (context_factory != "raw" && context_factory != "thread" && context_factory != "ucontext")
    return Status::Error("--context-factory '" + context_factory +
                         "' is unknown (expected raw|thread|ucontext)");
  return Status::Ok();
}

nlohmann::json SimOptions::ToJson() const {
  nlohmann::json j = {
      {"platform", platform},
      {"preset", preset},
      {"link_bandwidth_bytes_per_second", link_bandwidth_bytes_per_second},
      {"link_latency_seconds", link_latency_seconds},
      {"host_speed_flops", host_speed_flops},
      {"host_cores", host_cores},
      {"shared_cores", shared_cores},
      {"time_sliced", time_sliced},
      {"compute", ComputeModeName(compute)},
      {"costs_file", costs_file},
      {"network_model", network_model},
      {"network_crosstraffic", false},
      {"context_factory", context_factory},
      {"nic_lanes", nic_lanes},
      {"trace_file", trace_file},
  };
  if (fail_node.has_value())
    j["fail_node"] = {{"node", fail_node->node}, {"at_seconds", fail_node->at_seconds}};
  return j;
}

}  // namespace augur

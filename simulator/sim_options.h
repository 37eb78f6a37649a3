// SimOptions: the SimGrid-specific settings of one simulated run.
//
// Filled from `augur sim` flags (experiments/cli/cmd_sim.cc), validated once
// by Validate(), and merged into result.json's config (ToJson). Plain value
// type; no SimGrid types here so the CLI can build it without the engine.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/base/types.h"
#include "simulator/costs_file.h"

namespace augur {

// How worker compute and message handling are charged to the simulated clock.
enum class ComputeMode {
  kModel,     // modelled costs only: bit-reproducible
  kHybrid,    // real update runs too, modelled cost charged: bit-reproducible
  kMeasured,  // measured thread CPU time of the real code: not reproducible
};
Result<ComputeMode> ParseComputeMode(const std::string& name);
const char* ComputeModeName(ComputeMode mode);

// `--fail-node R@T`: node R's host is turned off at simulated time T seconds.
struct NodeFailure {
  NodeId node = 0;
  double at_seconds = 0;
};
Result<NodeFailure> ParseNodeFailure(const std::string& text);

// A named network preset: per-link bandwidth and latency.
struct NetworkPreset {
  const char* name;
  double link_bandwidth_bytes_per_second;
  double link_latency_seconds;
  const char* description;
};
// Known presets: ethernet-10g, infiniband-100g. Null if unknown.
const NetworkPreset* FindNetworkPreset(const std::string& name);
std::string NetworkPresetNames();

// Host speed in flop/s: "1Gf", "500Mf", "2.5e9" (units f, kf, Mf, Gf, Tf as in SimGrid).
Result<double> ParseHostSpeed(const std::string& text);

struct SimOptions {
  // star | fat-tree | dragonfly | path to a SimGrid platform XML file.
  std::string platform = "star";
  std::string preset;  // empty: no preset
  // Every link of the generated platform (a star route crosses two links).
  double link_bandwidth_bytes_per_second = 1.25e9;  // 10 Gbit/s
  double link_latency_seconds = 5e-6;
  double host_speed_flops = 1e9;  // modelled compute is in seconds at 1 Gflop/s
  // Cores per host (--host-cores). Workers, protocol handling and sync rounds
  // of a node all execute on its host's cores and share them when more are
  // busy than there are cores. 0: workers + 1 (a free core for the protocol).
  uint32_t host_cores = 0;
  // The nodes are processes of one machine of this many cores (--shared-cores;
  // 0: off, each node computes on its own host): every node's workers and
  // protocol handling execute on those cores, at most one each, shared as an
  // OS scheduler shares them (a node that waits leaves its core to the
  // others); each node keeps its own host and link for the network. Star
  // platform only.
  uint32_t shared_cores = 0;
  ComputeMode compute = ComputeMode::kModel;
  SimCosts costs;          // per-message handling costs (and the per-key cost used)
  std::string costs_file;  // where costs came from; empty: built-in defaults
  std::optional<NodeFailure> fail_node;
  std::string trace_file;  // empty: no trace
  std::string network_model = "CM02";
  std::string context_factory = "raw";  // raw | thread (use thread under sanitizers)
  uint32_t nic_lanes = 1;               // concurrent transfers per node (nic.h); 1 = a serial NIC
  bool progress = true;                 // progress line on stderr for long runs
  // The worker cost charged is the costs file's time-sliced one (--time-sliced).
  bool time_sliced = false;

  // REQUIRES: nodes > 0. Error names the flag.
  Status Validate(uint32_t nodes) const;
  nlohmann::json ToJson() const;
};

}  // namespace augur

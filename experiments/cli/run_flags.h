// Flags shared by every command that runs a cluster (loopback, sim, run).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "experiments/config/run_config.h"

namespace augur {

struct RunFlagText {  // unit-bearing flags, parsed after CLI11 (see units.h)
  std::string latency = "5us";
  std::string bandwidth = "10Gbps";
  std::string jitter = "0s";
};

void AddRunFlags(CLI::App& app, RunConfig* config);
// Flags of the real workloads (kge, wv, mf): --data, --partition, --negatives, ...
void AddWorkloadFlags(CLI::App& app, RunConfig* config);
void AddNetworkModelFlags(CLI::App& app, RunFlagText* text);
// Parses the unit-bearing flags into config and validates it.
Status FinishRunConfig(const RunFlagText& text, RunConfig* config);

}  // namespace augur

// Flags of the training commands (loopback, sim, run, launch, single), in
// groups: a command adds the groups whose flags it uses.
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

// For an integer flag whose 0 stands for "unset" inside (a default applies):
// an explicit 0 is refused ("must be at least 1") instead of meaning the default.
CLI::Validator AtLeastOne();

// Flags of every training command, `augur single` included: --workers,
// --workload, --epochs, --seed, --out, --dim, --batch-size.
void AddTrainingFlags(CLI::App& app, RunConfig* config);
// Flags that only mean something with a parameter server: --nodes, --policy,
// --sync-*, --replicate, --act-immediately, --lookahead, checkpoints,
// --verify and the zipf workload's flags.
void AddClusterFlags(CLI::App& app, RunConfig* config);
// AddTrainingFlags + AddClusterFlags: the flags of loopback, sim, run, launch.
void AddRunFlags(CLI::App& app, RunConfig* config);
// Flags of the real workloads' models and data (kge, wv, mf): --data,
// --partition, --negatives, --lr, --eval-triples, ...
void AddModelFlags(CLI::App& app, RunConfig* config);
// Real-workload flags of PS runs only: --sampling, --reuse, --compute-per-sample.
void AddClusterWorkloadFlags(CLI::App& app, RunConfig* config);
// AddModelFlags + AddClusterWorkloadFlags.
void AddWorkloadFlags(CLI::App& app, RunConfig* config);
// Everything `augur single` accepts: AddTrainingFlags + AddModelFlags.
void AddSingleFlags(CLI::App& app, RunConfig* config);
void AddNetworkModelFlags(CLI::App& app, RunFlagText* text);
// Parses the unit-bearing flags into config and validates it.
Status FinishRunConfig(const RunFlagText& text, RunConfig* config);
// Error naming the first flag given on `app` that the run would ignore:
// one for another workload (--negatives with mf, --keys with kge, --verify
// with anything but zipf, the generator's --mf-rows with --data) or for a
// sampling scheme not chosen (--reuse without pool, --prefetch-lead without
// prefetch). REQUIRES: config.workload and config.sampling set. Policy flags
// (--replicate, --sync-*) are not checked: `augur compare` passes the same
// flags to every policy it runs.
Status CheckFlagsApply(const CLI::App& app, const RunConfig& config);

}  // namespace augur

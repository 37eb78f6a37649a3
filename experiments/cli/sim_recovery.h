// SimRecovery: what `augur sim --fail-node R@T --checkpoint-dir DIR` does
// after the injected failure ended the simulated run.
//
// SimGrid runs one engine per process, so the simulated cluster restarts in
// a child process: this same binary, `sim` with the same flags minus
// --fail-node, --resume DIR's last complete checkpoint (from the start when
// none was committed before the failure), --out OUT/recovery (or
// DIR/recovery-out without --out). Its result.json is returned with a
// "recovery" section: the failure, the checkpoint used and when it was
// taken, the simulated seconds and whole epochs of work lost (done after
// the checkpoint, before the failure), and what the restarted run spent
// redoing the lost whole epochs (recomputed_*).
// Used once per process by cmd_sim.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "simulator/sim_options.h"

namespace augur {

// `app` is the parsed `sim` subcommand; `failed` the failed run's result JSON.
Result<nlohmann::json> RecoverSimRun(const CLI::App& app, const RunConfig& config,
                                     const NodeFailure& failure, const nlohmann::json& failed);

}  // namespace augur

// RunOnSim: runs a Job on the SimGrid runtime (simulator/), all nodes in this process.
//
// Epoch times are simulated seconds; wall_seconds is what the run took here.
// Backend-specific fields go into RunResult::extra: simulated message count,
// sim_messages_per_wall_second, peak memory, the platform, the costs used and,
// if --fail-node ended the run, the failure. Only one simulation per process.
#pragma once

#include <optional>
#include <string>

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/jobs/job.h"
#include "experiments/report/run_result.h"
#include "simulator/sim_options.h"

namespace augur {

struct SimOutcome {
  RunResult result;
  std::optional<std::string> failure;  // "node 3 failed at simulated time ..." when injected
};

// REQUIRES: config and sim validated; the job built from config.
// *bad_platform (if given) is set when the error is the platform's (a file
// SimGrid cannot load or run: bad input, not a failed run).
Result<SimOutcome> RunOnSim(const RunConfig& config, const SimOptions& sim, Job& job,
                            bool* bad_platform = nullptr);

}  // namespace augur

// RunMfSingle: the efficient single-node matrix-factorization baseline (SGD,
// Hogwild threads over shared row/column factor tables).
// Threading: call from one thread; it spawns config.workers threads.
#pragma once

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/mf/mf_task.h"
#include "experiments/report/run_result.h"

namespace augur {

Result<RunResult> RunMfSingle(const RunConfig& config, const MfTask& task);

}  // namespace augur

// RunKgeSingle: the efficient single-node KGE baseline (ComplEx, AdaGrad,
// Hogwild threads over one shared table), reporting like every backend.
// Threading: call from one thread; it spawns config.workers threads.
#pragma once

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/kge/kge_task.h"
#include "experiments/report/run_result.h"

namespace augur {

Result<RunResult> RunKgeSingle(const RunConfig& config, const KgeTask& task);

}  // namespace augur

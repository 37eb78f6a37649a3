// RunSingle: dispatches `augur single --workload kge|wv|mf` to the workload's
// Hogwild baseline (nodes = 1, workers = threads). Loads the data first; an
// unreadable data set is an error naming the file and line.
#pragma once

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/report/run_result.h"

namespace augur {

Result<RunResult> RunSingle(const RunConfig& config);

}  // namespace augur

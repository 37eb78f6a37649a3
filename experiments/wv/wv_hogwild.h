// RunWvSingle: the efficient single-node word2vec baseline (skip-gram,
// negative sampling, SGD, Hogwild threads over shared in/out tables).
// Threading: call from one thread; it spawns config.workers threads.
#pragma once

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/report/run_result.h"
#include "experiments/wv/wv_task.h"

namespace augur {

Result<RunResult> RunWvSingle(const RunConfig& config, const WvTask& task);

}  // namespace augur

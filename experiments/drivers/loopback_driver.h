// RunOnLoopback: runs a Job on the in-process loopback runtime (backends/loopback).
//
// Epoch times are virtual (the analytic network model plus modelled compute);
// wall_seconds is what the run took on this machine.
#pragma once

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/jobs/job.h"
#include "experiments/report/run_result.h"

namespace augur {

Result<RunResult> RunOnLoopback(const RunConfig& config, Job& job);

}  // namespace augur

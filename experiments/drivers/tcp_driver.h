// RunOnTcp: hosts ONE node of a TCP cluster in this process (backends/tcp).
//
// Joins the cluster, runs the node's T workers as real threads (each calls
// job.RunWorker), then drains (goodbye protocol) and asks the job for its
// report: per_node/totals cover this node only, epoch_seconds (wall time) come
// from rank 0. Epoch times are real time.
//
// A peer lost while workers run is fatal: the driver stops delivery to the
// node, cancels every worker (their waits return an error and the job stops
// its loop), joins them and returns the transport's error ("lost rank P:
// ..."), which `augur run` prints as one line before it exits with code 1
// (no partial result is written).
#pragma once

#include "backends/tcp/tcp_options.h"
#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/jobs/job.h"
#include "experiments/report/run_result.h"

namespace augur {

Result<RunResult> RunOnTcp(const RunConfig& config, const tcp::TcpOptions& options, Job& job);

}  // namespace augur

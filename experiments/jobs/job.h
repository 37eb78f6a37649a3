// Job: a workload bound to a cluster shape, runnable on any backend.
//
// A backend creates the nodes with MakeNodeOptions(), calls RunWorker() once
// for every worker context it hosts (concurrently on real backends, so
// implementations keep shared state in atomics or write-once slots), and,
// after every worker has returned, asks Report() for what was measured.
#pragma once

#include <memory>

#include "core/api/worker.h"
#include "core/base/status.h"
#include "core/protocol/node.h"
#include "experiments/config/run_config.h"
#include "experiments/report/run_result.h"

namespace augur {

class Job {
 public:
  virtual ~Job() = default;
  virtual NodeOptions MakeNodeOptions() const = 0;
  virtual void RunWorker(Worker& w) = 0;
  // Fills epoch_seconds (if this process hosted node 0), samples done by the
  // workers this process hosted, and verification of the nodes it hosted.
  virtual void Report(RunResult* result) const = 0;
};

// REQUIRES: config validated.
Result<std::unique_ptr<Job>> MakeJob(const RunConfig& config);

}  // namespace augur

// Job: a workload bound to a cluster shape, runnable on any backend.
//
// A backend creates the nodes with MakeNodeOptions(), calls RunWorker() once
// for every worker context it hosts (concurrently on real backends, so
// implementations keep shared state in atomics or write-once slots), and,
// after every worker has returned, asks Report() for what was measured.
//
// A worker that hits an error the run cannot go on from (a checkpoint that
// cannot be written) records it with Fail() and leaves its training loop;
// the backend returns failure() instead of a result once the workers are
// done. The collective steps around such an error still complete (every
// worker keeps arriving at their barriers), so no peer waits for this
// process forever and no node ends the process from inside a worker.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

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
  // True once this process's workers left the training loop before its end
  // (a diverged run): on TCP its peers may still be training and waiting for
  // it at a barrier, so it does not wait for their goodbyes unbounded.
  virtual bool StoppedEarly() const { return false; }

  // The first error recorded wins. Thread-safe.
  void Fail(const Status& error) {
    std::lock_guard<std::mutex> lock(failure_mutex_);
    if (failure_.ok()) failure_ = error;
    failed_.store(true, std::memory_order_release);
  }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  Status failure() const {
    std::lock_guard<std::mutex> lock(failure_mutex_);
    return failure_;
  }

 private:
  std::atomic<bool> failed_{false};
  mutable std::mutex failure_mutex_;
  Status failure_;  // guarded by failure_mutex_
};

// REQUIRES: config validated.
Result<std::unique_ptr<Job>> MakeJob(const RunConfig& config);

}  // namespace augur

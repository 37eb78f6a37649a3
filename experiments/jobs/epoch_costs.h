// EpochCosts: what this process spent on each training epoch: its CPU time
// (every thread: workers, I/O, sync rounds; getrusage RUSAGE_SELF) and the
// frames and bytes its node sent, each the difference between two marks.
//
// Meaningful where a process hosts exactly one node (the tcp backend): a job
// records it there, and `augur calibrate` reads it from each rank's
// result.json to price a worker's sample on the epochs after the first,
// within one run (experiments/calibration/cost_calibration.h).
// Use: Begin(w) before the first epoch, End(w) after each epoch's barrier,
// Begin(w) again after anything that is not training (a checkpoint).
// Threading: Begin/End from one worker of the process (worker 0), Report
// after every worker returned.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "core/api/worker.h"

namespace augur {

class EpochCosts {
 public:
  void Begin(const Worker& w);
  void End(const Worker& w);
  // Adds epoch_process_cpu_seconds, epoch_messages_sent and
  // epoch_bytes_sent (one element per End) to `extra`, if any epoch ended.
  void Report(nlohmann::json* extra) const;

 private:
  void Mark(double cpu, const MetricsSnapshot& m);  // the start of the next epoch
  double cpu_ = 0;
  uint64_t messages_ = 0, bytes_ = 0;
  std::vector<double> cpu_per_epoch_;
  std::vector<uint64_t> messages_per_epoch_, bytes_per_epoch_;
};

// This process's CPU time so far (user + system, every thread), in seconds.
double ProcessCpuSeconds();

}  // namespace augur

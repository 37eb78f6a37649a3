// EpochCosts: what one node spent on each training epoch: its CPU time
// (Worker::NodeCpuSeconds: every context of the node; on TCP the process's,
// getrusage; in the simulator the CPU the model charged to its host) and the
// frames and bytes it sent, each the difference between two marks.
//
// A job keeps one per node it runs (EpochCostsByNode) and reports their sum:
// `augur calibrate` reads each TCP rank's to price a worker's sample
// (experiments/calibration/cost_calibration.h), and scripts/bench-fidelity.sh
// sets the simulator's against the TCP runs'. Not recorded where the runtime
// cannot tell its CPU (loopback).
// Use: Begin(w) before the first epoch, End(w) after each epoch's barrier,
// Begin(w) again after anything that is not training (a checkpoint).
// Threading: Begin/End from one worker of the node (worker 0), Report
// after every worker returned.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "core/api/worker.h"

namespace augur {

class EpochCosts {
 public:
  // False where the worker's runtime cannot tell its CPU: nothing to record.
  static bool Records(Worker& w) { return w.id() == 0 && w.NodeCpuSeconds() >= 0; }
  void Begin(Worker& w);
  void End(Worker& w);

 private:
  friend class EpochCostsByNode;
  void Mark(double cpu, const MetricsSnapshot& m);  // the start of the next epoch
  double cpu_ = 0;
  uint64_t messages_ = 0, bytes_ = 0;
  std::vector<double> cpu_per_epoch_;
  std::vector<uint64_t> messages_per_epoch_, bytes_per_epoch_;
};

// One EpochCosts per node of the process (the simulator runs them all).
class EpochCostsByNode {
 public:
  explicit EpochCostsByNode(uint32_t nodes = 0) : nodes_(nodes) {}
  EpochCosts& operator[](NodeId n) { return nodes_[n]; }
  // Adds epoch_process_cpu_seconds, epoch_messages_sent and
  // epoch_bytes_sent (per epoch, the sum over the nodes that recorded it) to
  // `extra`, if any epoch ended.
  void Report(nlohmann::json* extra) const;

 private:
  std::vector<EpochCosts> nodes_;
};

}  // namespace augur

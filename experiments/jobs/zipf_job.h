// ZipfJob: runs the synthetic ZipfWorkload as a Job, with optional verification.
//
// Metrics are snapshotted per node at the end of training (between two
// barriers), so the verification traffic is not counted.
// After training, worker 0 of every node verifies the keys homed at its node
// (ZipfWorkload::VerifyNode), then all workers meet at a final barrier so no
// node stops serving while another still verifies.
#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include "experiments/jobs/job.h"
#include "experiments/workloads/zipf_workload.h"

namespace augur {

class ZipfJob final : public Job {
 public:
  explicit ZipfJob(const RunConfig& config);
  NodeOptions MakeNodeOptions() const override;
  void RunWorker(Worker& w) override;
  void Report(RunResult* result) const override;

 private:
  const RunConfig config_;
  ZipfWorkload workload_;
  EpochLog log_;                                              // written only by node 0's worker 0
  std::vector<std::optional<MetricsSnapshot>> node_metrics_;  // slot n written by node n's worker 0
  std::atomic<uint64_t> samples_{0};
  std::atomic<uint32_t> nodes_verified_{0};
  std::atomic<uint64_t> mismatches_{0};
  std::string first_mismatch_;  // written by the first mismatching node only
  std::atomic<bool> mismatch_claimed_{false};
};

}  // namespace augur

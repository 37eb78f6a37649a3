// ZipfJob: runs the synthetic ZipfWorkload as a Job, with optional verification
// and consistent checkpoints / resume.
//
// Metrics are snapshotted per node at the end of training (between two
// barriers), so the verification traffic is not counted.
// After training, worker 0 of every node verifies the keys homed at its node
// (ZipfWorkload::VerifyNode), then all workers meet at a final barrier so no
// node stops serving while another still verifies.
//
// Checkpoint (every --checkpoint-every epochs, after the epoch's barrier):
// the checkpoint collective of jobs/job_checkpoint.h reading through pulls
// (CheckpointRead::kPulls): node 0 prepares DIR/ckpt-E.tmp; barrier; every
// node flushes its replica deltas (WaitSync); barrier; refreshes its
// replicas; barrier; worker 0 of every node pulls, through the API, the keys
// homed at its node that any batch so far accessed (so a key in transfer
// between nodes is waited for, never missed) and writes them; barrier; node 0
// commits the manifest; barrier. No push is issued between the first and the
// last barrier, so the checkpoint holds exactly the pushes of epochs < E.
// Resume: the checkpoint is loaded and checked in Create(); before training
// worker 0 of every node Sets the keys homed at its node (in this run's node
// count), a barrier follows, and training continues at epoch E; --verify
// expects the pushes of the epochs before E (by the checkpointed run's shape)
// plus this run's.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "experiments/checkpoint/checkpoint_files.h"
#include "experiments/jobs/epoch_costs.h"
#include "experiments/jobs/job.h"
#include "experiments/zipf/zipf_workload.h"

namespace augur {

class ZipfJob final : public Job {
 public:
  // Loads and checks the --resume checkpoint, if any. Error names the file and problem.
  static Result<std::unique_ptr<Job>> Create(const RunConfig& config);
  explicit ZipfJob(const RunConfig& config, std::optional<LoadedCheckpoint> resume = {});
  NodeOptions MakeNodeOptions() const override;
  void RunWorker(Worker& w) override;
  void Report(RunResult* result) const override;

 private:
  static ZipfOptions Options(const RunConfig& config, const std::optional<LoadedCheckpoint>& ck);
  static nlohmann::json Fingerprint(const RunConfig& config);
  void Restore(Worker& w);
  void Checkpoint(Worker& w, uint32_t epochs_done);

  const RunConfig config_;
  ZipfWorkload workload_;
  std::optional<LoadedCheckpoint> resume_;  // read-only after construction
  EpochCostsByNode epoch_costs_;            // slot n recorded by node n's worker 0
  EpochLog log_;                            // written only by node 0's worker 0
  std::vector<std::optional<MetricsSnapshot>> node_metrics_;  // slot n written by node n's worker 0
  std::atomic<uint64_t> samples_{0};
  std::atomic<uint32_t> nodes_verified_{0};
  std::atomic<uint64_t> mismatches_{0};
  std::string first_mismatch_;  // written by the first mismatching node only
  std::atomic<bool> mismatch_claimed_{false};
};

}  // namespace augur

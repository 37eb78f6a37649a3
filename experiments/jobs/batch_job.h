// BatchJob: the common skeleton of the real-workload jobs (kge, wv, mf) on
// the parameter server; subclasses supply the model through a few hooks.
//
// Parameter management: the configured policy (--policy, --sync-period,
// ...; jobs/management_options.h), with the items' most accessed keys as the
// workload's hot set.
// Training data is split over all global workers (node * workers + worker)
// by --partition random|graph|block (partition/work_split.h). Each worker
// walks its items in mini-batches, one clock per batch: it signals intent
// for the keys of the batch `lookahead` clocks ahead (Worker::Intent) and
// prepares its negatives at the same time (Worker::PrepareSample(K, c, c+1)
// for the batch of clock c; the node's sampling scheme, --sampling, draws
// them from the workload's NegativeDistribution()), then TrainBatch() pulls
// (negatives through Worker::PullSample on the handle), computes and pushes,
// charges modelled compute (Worker::Compute, compute_seconds_per_sample per
// training sample: triple, rating, token of a wv sentence; in epoch 0 plus
// first_epoch_extra_seconds_per_sample, a calibrated start-up cost) and advances its
// clock; a barrier ends every epoch. Afterwards worker 0 of every node
// snapshots its node's metrics, and node 0's worker 0 pulls the whole model
// and evaluates it (not counted in the epoch times or the metrics).
// Checkpoints (--checkpoint-dir, every --checkpoint-every epochs, after the
// epoch's barrier) hold every main copy's whole row, optimizer state
// included (jobs/job_checkpoint.h). With --resume the rows are restored
// before training, re-homed under this run's node count, and training
// continues at the checkpoint's epoch; the clock c that seeds each batch's
// Rng continues from epoch * batches_per_epoch of the worker, so a resume on
// the same shape draws the same random streams as an uninterrupted run.
// Divergence (jobs/divergence_guard.h): each worker watches its own loss over
// windows of kDivergenceWindows per epoch, and every worker the mean epoch
// loss of the workers in this process after each epoch's barrier. A worker
// whose window diverged sets a shared stop flag and skips the rest of its
// batches (redeeming its prepared samples); after the barrier every worker
// sees the flag, so all stop together, without evaluation, and Report()
// records "diverged": true with the message. So does a model whose
// evaluation is more than QualityFloor::kMargin worse than its untrained
// rows' (UntrainedQuality, jobs/quality_floor.h): reported as diverged,
// without a quality.
// On several processes (tcp) each
// judges its own workers: a process that stops leaves the others waiting, and
// they stop with `lost rank` (nonzero either way).
// Threading (Job contract): RunWorker runs concurrently for all workers;
// each writes only its own slots; Report runs after all returned.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "experiments/checkpoint/checkpoint_files.h"
#include "experiments/jobs/batch_rows.h"
#include "experiments/jobs/divergence_guard.h"
#include "experiments/jobs/epoch_costs.h"
#include "experiments/jobs/intent_runs.h"
#include "experiments/jobs/job.h"
#include "experiments/partition/graph_partitioner.h"

namespace augur {

struct QualityFloor;

struct BatchStats {
  double loss = 0;               // summed over the batch
  uint64_t terms = 0;            // what the loss is summed over
  uint64_t samples = 0;          // training examples (triples, center words, ratings)
  uint64_t sampled = 0;          // keys returned by Worker::PullSample (negatives)
  uint64_t sampled_key_sum = 0;  // their sum (wrapping): a seed-determined fingerprint
  uint64_t in_place = 0;  // samples trained on rows read where they are in the store (no copy)
};

class BatchJob : public Job {
 public:
  NodeOptions MakeNodeOptions() const override;
  void RunWorker(Worker& w) override;
  void Report(RunResult* result) const override;
  bool StoppedEarly() const override { return Stopped(); }
  // Loads and checks config.resume_dir (if set). Call once after construction.
  // Error names the checkpoint file and the problem.
  Status LoadResume();

 protected:
  explicit BatchJob(const RunConfig& config);
  ~BatchJob() override;
  // Splits items 0..n-1 over the global workers. Call once from the subclass
  // constructor (items.size() == number of training items).
  void Partition(const ItemKeys& items);
  // After Partition: mixes what an item holds besides its keys (mf's rating
  // values) into the data digest a checkpoint records (Fingerprint), so a
  // resumed run on changed values with the same cells is refused.
  void MixIntoDataDigest(uint64_t value) { data_digest_ = Mix64(data_digest_ ^ value); }

  virtual ValueLayout Layout() const = 0;
  virtual OptimizerConfig Optimizer() const = 0;
  virtual void InitRow(Key key, std::span<float> row) const = 0;
  virtual uint32_t RowLength() const = 0;
  virtual uint32_t BatchSize() const = 0;
  virtual double ComputeSecondsPerSample() const = 0;
  // Keys the batch will access that are known ahead (negatives excluded).
  virtual void IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                          std::vector<Key>* keys) const = 0;
  // Above 0: the worker's intents merge into runs (jobs/intent_runs.h): uses
  // of a key at most this many batches apart within an epoch become one
  // signal from the first to the last, computed once from IntentKeys(items,
  // 0) (so only for jobs whose keys do not depend on the epoch), for a job
  // that knows no other worker uses the key between them. 0: one signal per
  // batch, [c, c+1), for its keys.
  virtual uint32_t IntentRunGap() const { return 0; }
  // Negative sampling: the distribution the PS sampler draws from (null: the
  // workload samples nothing) and how many keys a batch samples.
  virtual std::function<Key(Rng&)> NegativeDistribution() const { return nullptr; }
  virtual uint64_t NegativesFor(std::span<const uint32_t> /*items*/, uint32_t /*epoch*/) const {
    return 0;
  }
  // `negatives`: the batch's prepared sample (NegativesFor keys; id 0 when the
  // workload samples nothing), to be redeemed with Worker::PullSample.
  virtual BatchStats TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch,
                                Rng& rng, SampleHandle negatives, BatchRows& rows) const = 0;
  // Runs on node 0's worker 0 after training; returns the quality metrics.
  virtual nlohmann::json Evaluate(Worker& w) const = 0;
  // The quality of the untrained model, which the trained one must not be
  // worse than (jobs/quality_floor.h): fills *floor and returns true for a
  // workload that has one (wv, mf). Runs on node 0's worker 0 after Evaluate.
  virtual bool UntrainedQuality(QualityFloor* /*floor*/) const { return false; }
  // The untrained model's mean training loss per term, the divergence
  // guard's reference besides the first loss (jobs/divergence_guard.h); 0: unknown.
  virtual double UntrainedLoss() const { return 0; }
  // How TrainBatch reaches the rows held on its node in a cluster of several
  // nodes, as result.json's row_access says it.
  virtual const char* SeveralNodesRowAccess() const {
    return "pull/push copies of every row, local or remote (direct access is for one-node "
           "clusters only)";
  }

  const RunConfig config_;
  uint32_t GlobalWorker(const Worker& w) const { return w.node_id() * config_.workers + w.id(); }
  // The training items of global worker g, in the order it walks them
  // (TrainBatch's items are a span of it).
  const std::vector<uint32_t>& ItemsOf(uint32_t g) const { return items_of_[g]; }

 private:
  struct Pending {
    Clock clock;  // this run's worker clock
    SampleHandle handle;
  };
  Clock BatchesPerEpoch(uint32_t g) const;
  uint32_t StartEpoch() const { return resume_.has_value() ? resume_->manifest.epoch : 0; }
  // What a checkpoint must share with the run resuming from it.
  nlohmann::json Fingerprint() const;
  // For global batch c (this run's worker clock `local`): intent for its keys
  // (lookahead > 0) and its negatives prepared (appended to *pending).
  struct IntentScratch {  // one per worker
    std::vector<Key> all, distinct;
    BatchIndex seen;
    std::vector<IntentSignal> signals;  // a batch's merged runs (IntentRuns)
  };
  void Signal(Worker& w, uint32_t g, Clock c, Clock local, IntentScratch* scratch,
              std::deque<Pending>* pending) const;
  // The 0.1% most accessed keys of the training items (by IntentKeys), most
  // accessed first: the hot set nups replicates (--replicate limits it).
  void FindHotKeys(uint32_t num_items);

  std::vector<std::vector<uint32_t>> items_of_;  // per global worker
  uint64_t data_digest_ = 0;                     // of the items' keys and values (Fingerprint)
  // Per global worker: its merged intents (IntentRunGap() > 0), set by that
  // worker before its first signal; empty: a signal per batch.
  std::vector<IntentRuns> intent_runs_;
  struct PartitionInfo {  // set by Partition(), reported as result.json's "partition"
    std::string method;
    double worker_locality = 0, node_locality = 0;  // AccessLocality of the split
  };
  PartitionInfo partition_info_;
  std::vector<Key> hot_keys_;
  std::optional<LoadedCheckpoint> resume_;  // read-only once training starts
  // Written by one worker each (own slot / node 0 worker 0 only).
  std::vector<double> epoch_seconds_;
  EpochCostsByNode epoch_costs_;                // slot n recorded by node n's worker 0
  std::vector<std::vector<BatchStats>> stats_;  // [global worker][epoch]
  std::vector<std::optional<MetricsSnapshot>> node_metrics_;
  // Divergence: set by the first worker that sees it (under stop_mutex_), read after barriers.
  static constexpr uint32_t kDivergenceWindows = 8;
  // `epoch`: the epoch whose training diverged (config_.epochs: the final
  // evaluation's check).
  void StopDiverged(const std::string& message, uint32_t epoch);
  bool Stopped() const { return stopped_.load(std::memory_order_acquire); }
  // A stop requested in `epoch` or before. After an epoch's barrier the
  // workers decide with this, not Stopped(): a worker that left the barrier
  // first may already have stopped in the next epoch, and one that read
  // that stop at the earlier epoch's end left one barrier early: the others
  // waited for it forever (mf, replicate-all, --lr 1: the run never ended).
  bool StoppedBy(uint32_t epoch) const {
    return stop_epoch_.load(std::memory_order_acquire) <= epoch;
  }
  std::atomic<bool> stopped_{false};
  std::atomic<uint32_t> stop_epoch_{UINT32_MAX};  // the first stop's epoch
  mutable std::mutex stop_mutex_;
  std::string divergence_;                   // guarded by stop_mutex_
  std::unique_ptr<nlohmann::json> quality_;  // Evaluate's result; null: not evaluated
  double eval_seconds_ = 0;                  // node 0's worker 0: the evaluation's wall time
  // Draws from NegativeDistribution() by this process's samplers (all
  // workers), added by each worker when it is done.
  std::atomic<uint64_t> draws_{0};
};

}  // namespace augur

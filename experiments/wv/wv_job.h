// WvJob: word2vec skip-gram with negative sampling (wv/wv_task.h) on
// the parameter server. Per batch (a few sentences): pull the kept words'
// input and output rows and, through the PS sampling access
// (Worker::PullSample on the batch's prepared handle; unigram^0.75 is the
// sampler's distribution), the negatives' output rows; run the SGD steps on the local copies
// exactly as the single-node trainer does, and push the steps as gradients for the server-side SGD
// optimizer. On a one-node cluster the same steps run on the store's rows
// directly, found by word (DenseRows; Hogwild, as the baseline). Intent
// covers the kept words' input and output rows.
// Threading: see BatchJob.
#pragma once

#include <memory>
#include <vector>

#include "experiments/jobs/dense_rows.h"
#include "experiments/jobs/task_job.h"
#include "experiments/wv/wv_task.h"

namespace augur {

class WvJob final : public TaskJob<WvTask> {
 public:
  WvJob(const RunConfig& config, std::unique_ptr<WvTask> task);

 protected:
  void IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                  std::vector<Key>* keys) const override;
  BatchStats TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch, Rng& rng,
                        SampleHandle negatives, BatchRows& rows) const override;
  std::function<Key(Rng&)> NegativeDistribution() const override;
  uint64_t NegativesFor(std::span<const uint32_t> items, uint32_t epoch) const override;
  nlohmann::json Evaluate(Worker& w) const override;
  bool UntrainedQuality(QualityFloor* floor) const override;

 private:
  // One node: the rows in the store, found by word (DenseRows), no copies.
  struct DirectRows {
    DenseRows in;   // from WvTask::InputKey(0)
    DenseRows out;  // from WvTask::OutputKey(0)
  };
  BatchStats TrainDirect(Worker& w, std::span<const uint32_t> items, uint32_t epoch,
                         SampleHandle negatives) const;
  // Per global worker, built on its first direct batch; written by it only.
  mutable std::vector<std::unique_ptr<DirectRows>> direct_;
};

}  // namespace augur

// WvJob: word2vec skip-gram with negative sampling (workloads/wv_task.h) on
// the parameter server. Per batch (a few sentences): pull the kept words'
// input and output rows and, through the PS sampling access
// (Worker::PullSample on the batch's prepared handle; unigram^0.75 is the
// sampler's distribution), the negatives' output rows; run the SGD steps on the local copies
// exactly as the single-node trainer does, and push the steps as gradients for the server-side SGD
// optimizer. Intent covers the kept words' input and output rows.
// Threading: see BatchJob.
#pragma once

#include <memory>

#include "experiments/jobs/task_job.h"
#include "experiments/workloads/wv_task.h"

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
};

}  // namespace augur

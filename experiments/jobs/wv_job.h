// WvJob: word2vec skip-gram with negative sampling (workloads/wv_task.h) on
// the parameter server. Per batch (a few sentences): pull the centers' input
// rows, the contexts' and drawn negatives' output rows (ordinary Pull for
// now), run the SGD steps on the local copies exactly as the single-node
// trainer does, and push the steps as gradients for the server-side SGD
// optimizer. Intent covers the kept words' input and output rows.
// Threading: see BatchJob.
#pragma once

#include <memory>

#include "experiments/jobs/batch_job.h"
#include "experiments/workloads/wv_task.h"

namespace augur {

class WvJob final : public BatchJob {
 public:
  WvJob(const RunConfig& config, std::unique_ptr<WvTask> task);

 protected:
  ValueLayout Layout() const override { return task_->Layout(); }
  OptimizerConfig Optimizer() const override { return task_->Optimizer(); }
  void InitRow(Key key, std::span<float> row) const override { task_->InitRow(key, row); }
  uint32_t RowLength() const override { return task_->dim(); }
  uint32_t BatchSize() const override { return task_->options().batch_size; }
  double ComputeSecondsPerItem() const override {
    return task_->options().compute_seconds_per_sample;
  }
  void IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                  std::vector<Key>* keys) const override;
  BatchStats TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch, Rng& rng,
                        BatchRows& rows) const override;
  nlohmann::json Evaluate(Worker& w) const override;

 private:
  std::unique_ptr<WvTask> task_;
};

}  // namespace augur

// KgeJob: ComplEx knowledge-graph embeddings (workloads/kge_task.h) on the
// parameter server. Per batch: pull the triples' entity and relation rows
// and the drawn negatives (ordinary Pull for now), sum the gradients per key
// locally, push them; the main copy applies AdaGrad (NodeOptions::optimizer,
// state beside the value). Intent covers the triples' entities and relations.
// Threading: see BatchJob.
#pragma once

#include <memory>

#include "experiments/jobs/batch_job.h"
#include "experiments/workloads/kge_task.h"

namespace augur {

class KgeJob final : public BatchJob {
 public:
  KgeJob(const RunConfig& config, std::unique_ptr<KgeTask> task);

 protected:
  ValueLayout Layout() const override { return task_->Layout(); }
  OptimizerConfig Optimizer() const override { return task_->Optimizer(); }
  void InitRow(Key key, std::span<float> row) const override { task_->InitRow(key, row); }
  uint32_t RowLength() const override { return task_->row_length(); }
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
  std::unique_ptr<KgeTask> task_;
};

}  // namespace augur

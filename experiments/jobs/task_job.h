// TaskJob<Task>: a BatchJob whose model shape comes from a workload task
// (kge/kge_task.h, wv_task.h, mf_task.h): value layout, optimizer,
// initial rows, row length, batch size and modelled compute per item.
// Subclasses add what differs per workload: the keys an item touches, the
// training step and the evaluation.
// A Task provides Layout(), Optimizer(), InitRow(key, row), row_length(),
// options().batch_size, options().compute_seconds_per_sample and
// UntrainedLoss() (0: unknown).
// Threading: see BatchJob.
#pragma once

#include <memory>
#include <utility>

#include "experiments/jobs/batch_job.h"

namespace augur {

template <typename Task>
class TaskJob : public BatchJob {
 protected:
  TaskJob(const RunConfig& config, std::unique_ptr<Task> task)
      : BatchJob(config), task_(std::move(task)) {}

  ValueLayout Layout() const override { return task_->Layout(); }
  OptimizerConfig Optimizer() const override { return task_->Optimizer(); }
  void InitRow(Key key, std::span<float> row) const override { task_->InitRow(key, row); }
  uint32_t RowLength() const override { return task_->row_length(); }
  uint32_t BatchSize() const override { return task_->options().batch_size; }
  double ComputeSecondsPerSample() const override {
    return task_->options().compute_seconds_per_sample;
  }
  double UntrainedLoss() const override { return task_->UntrainedLoss(); }

  std::unique_ptr<Task> task_;
};

}  // namespace augur

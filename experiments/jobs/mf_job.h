// MfJob: SGD matrix factorization (workloads/mf_task.h) on the parameter
// server. Per batch: pull the ratings' row and column factors, run the SGD
// steps on the local copies, push them as gradients for the server-side SGD
// optimizer. Intent covers the batch's rows and columns.
// Threading: see BatchJob.
#pragma once

#include <memory>

#include "experiments/jobs/task_job.h"
#include "experiments/workloads/mf_task.h"

namespace augur {

class MfJob final : public TaskJob<MfTask> {
 public:
  MfJob(const RunConfig& config, std::unique_ptr<MfTask> task);

 protected:
  void IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                  std::vector<Key>* keys) const override;
  BatchStats TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch, Rng& rng,
                        SampleHandle negatives, BatchRows& rows) const override;
  nlohmann::json Evaluate(Worker& w) const override;
};

}  // namespace augur

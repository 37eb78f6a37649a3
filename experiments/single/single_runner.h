// SingleRun: `augur single --workload kge|wv|mf`, the workload's Hogwild
// baseline (nodes = 1, workers = threads), in two steps so a caller can tell
// bad input from a failed run: Load reads and checks the data (an unreadable
// or unusable data set is an error naming the file and line), Run trains.
#pragma once

#include <memory>

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/kge/kge_task.h"
#include "experiments/mf/mf_task.h"
#include "experiments/report/run_result.h"
#include "experiments/wv/wv_task.h"

namespace augur {

class SingleRun {
 public:
  static Result<SingleRun> Load(const RunConfig& config);
  Result<RunResult> Run() const;

 private:
  explicit SingleRun(const RunConfig& config) : config_(config) {}
  RunConfig config_;
  std::shared_ptr<KgeTask> kge_;  // the one of the workload's
  std::shared_ptr<WvTask> wv_;
  std::shared_ptr<MfTask> mf_;
};

// Load, then Run.
Result<RunResult> RunSingle(const RunConfig& config);

}  // namespace augur

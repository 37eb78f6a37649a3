#include "experiments/single/single_runner.h"

#include "experiments/config/model_memory.h"
#include "experiments/kge/kge_hogwild.h"
#include "experiments/mf/mf_hogwild.h"
#include "experiments/wv/wv_hogwild.h"

namespace augur {

Result<SingleRun> SingleRun::Load(const RunConfig& config) {
  SingleRun run(config);
  if (config.workload == "kge") {
    Result<std::unique_ptr<KgeTask>> task = LoadTaskWithinMemory<KgeTask>(config);
    if (!task.ok()) return task.status();
    run.kge_ = std::move(*task);
  } else if (config.workload == "wv") {
    Result<std::unique_ptr<WvTask>> task = LoadTaskWithinMemory<WvTask>(config);
    if (!task.ok()) return task.status();
    run.wv_ = std::move(*task);
  } else if (config.workload == "mf") {
    Result<std::unique_ptr<MfTask>> task = LoadTaskWithinMemory<MfTask>(config);
    if (!task.ok()) return task.status();
    run.mf_ = std::move(*task);
  } else {
    return Status::Error("augur single runs --workload kge|wv|mf, not '" + config.workload + "'");
  }
  return run;
}

Result<RunResult> SingleRun::Run() const {
  if (kge_) return RunKgeSingle(config_, *kge_);
  if (wv_) return RunWvSingle(config_, *wv_);
  return RunMfSingle(config_, *mf_);
}

Result<RunResult> RunSingle(const RunConfig& config) {
  Result<SingleRun> run = SingleRun::Load(config);
  if (!run.ok()) return run.status();
  return run->Run();
}

}  // namespace augur

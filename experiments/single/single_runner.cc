#include "experiments/single/single_runner.h"

#include "experiments/config/model_memory.h"
#include "experiments/kge/kge_hogwild.h"
#include "experiments/mf/mf_hogwild.h"
#include "experiments/wv/wv_hogwild.h"

namespace augur {

namespace {

// The task of `config`'s workload, its model checked against this machine's
// memory before the baseline allocates it (config/model_memory.h).
template <typename Task>
Result<std::unique_ptr<Task>> LoadTask(const RunConfig& config) {
  Result<std::unique_ptr<Task>> task = Task::Load(config);
  if (!task.ok()) return task.status();
  if (Status s = CheckLoadedModelMemory(config, (*task)->Layout(), (*task)->Optimizer()); !s.ok())
    return s;
  return task;
}

}  // namespace

Result<SingleRun> SingleRun::Load(const RunConfig& config) {
  SingleRun run(config);
  if (config.workload == "kge") {
    Result<std::unique_ptr<KgeTask>> task = LoadTask<KgeTask>(config);
    if (!task.ok()) return task.status();
    run.kge_ = std::move(*task);
  } else if (config.workload == "wv") {
    Result<std::unique_ptr<WvTask>> task = LoadTask<WvTask>(config);
    if (!task.ok()) return task.status();
    run.wv_ = std::move(*task);
  } else if (config.workload == "mf") {
    Result<std::unique_ptr<MfTask>> task = LoadTask<MfTask>(config);
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

#include "experiments/single/single_runner.h"

#include "experiments/kge/kge_hogwild.h"
#include "experiments/mf/mf_hogwild.h"
#include "experiments/wv/wv_hogwild.h"

namespace augur {

Result<RunResult> RunSingle(const RunConfig& config) {
  if (config.workload == "kge") {
    Result<std::unique_ptr<KgeTask>> task = KgeTask::Load(config);
    if (!task.ok()) return task.status();
    return RunKgeSingle(config, **task);
  }
  if (config.workload == "wv") {
    Result<std::unique_ptr<WvTask>> task = WvTask::Load(config);
    if (!task.ok()) return task.status();
    return RunWvSingle(config, **task);
  }
  if (config.workload == "mf") {
    Result<std::unique_ptr<MfTask>> task = MfTask::Load(config);
    if (!task.ok()) return task.status();
    return RunMfSingle(config, **task);
  }
  return Status::Error("augur single runs --workload kge|wv|mf, not '" + config.workload + "'");
}

}  // namespace augur

// `augur loopback`: the whole cluster in this process on a virtual clock.
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "experiments/cli/command.h"
#include "experiments/cli/dir_lock.h"
#include "experiments/cli/result_summary.h"
#include "experiments/cli/run_flags.h"
#include "experiments/config/model_memory.h"
#include "experiments/drivers/loopback_driver.h"

namespace augur {

CommandFn AddLoopbackCommand(CLI::App& root) {
  auto config = std::make_shared<RunConfig>();
  auto text = std::make_shared<RunFlagText>();
  CLI::App* app = root.add_subcommand(
      "loopback",
      "Run N nodes x T workers in this process on the deterministic loopback runtime "
      "(virtual clock, analytic network model; epoch times are model time)");
  AddRunFlags(*app, config.get());
  AddWorkloadFlags(*app, config.get());
  AddNetworkModelFlags(*app, text.get());
  auto check = std::make_shared<bool>(false);
  AddCheckFlagsFlag(*app, check.get());
  return [config, text, app, check]() -> int {
    config->backend = "loopback";
    if (Status s = FinishRunConfig(*text, config.get()); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagsApply(*app, *config); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagModelMemory(*config); !s.ok()) return UsageError(s.message());
    if (*check) return 0;
    Result<std::unique_ptr<Job>> job = MakeJob(*config);
    if (!job.ok()) return UsageError(job.status().message());
    std::vector<DirLock> locks;  // --out and --checkpoint-dir, until the run ends
    if (Status s = LockRunDirs(*config, &locks); !s.ok()) return UsageError(s.message());
    Result<RunResult> r = RunOnLoopback(*config, **job);
    if (!r.ok()) return RunError(r.status().message());
    const nlohmann::json j = r->ToJson(config->ToJson());
    if (!config->out_dir.empty()) {
      if (Status s = WriteResultJson(config->out_dir, j); !s.ok()) return RunError(s.message());
    }
    PrintResultSummary(j, stdout);
    if (!config->out_dir.empty())
      std::printf("  result: %s/result.json\n", config->out_dir.c_str());
    return DivergenceExitCode(j, (r->verified.has_value() && !*r->verified) ? 1 : 0);
  };
}

}  // namespace augur

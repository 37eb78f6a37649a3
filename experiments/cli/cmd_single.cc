// `augur single`: the efficient single-node baseline (Hogwild threads, no PS).
#include <memory>

#include "experiments/cli/command.h"
#include "experiments/cli/result_summary.h"
#include "experiments/cli/run_flags.h"
#include "experiments/single/single_runner.h"

namespace augur {

CommandFn AddSingleCommand(CLI::App& root) {
  auto config = std::make_shared<RunConfig>();
  auto text = std::make_shared<RunFlagText>();
  CLI::App* app = root.add_subcommand(
      "single",
      "Train kge|wv|mf with the efficient single-node baseline: T Hogwild threads over one "
      "shared model, no parameter server (epoch times are wall time)");
  config->workload = "kge";
  config->workers = 2;
  AddRunFlags(*app, config.get());
  AddWorkloadFlags(*app, config.get());
  app->add_option("--threads", config->workers, "Training threads (same as --workers)")
      ->capture_default_str();
  return [config, text]() -> int {
    config->backend = "single";
    config->nodes = 1;
    if (Status s = FinishRunConfig(*text, config.get()); !s.ok()) return UsageError(s.message());
    Result<RunResult> r = RunSingle(*config);
    if (!r.ok()) return RunError(r.status().message());
    const nlohmann::json j = r->ToJson(config->ToJson());
    if (!config->out_dir.empty()) {
      if (Status s = WriteResultJson(config->out_dir, j); !s.ok()) return RunError(s.message());
    }
    PrintResultSummary(j, stdout);
    if (!config->out_dir.empty())
      std::printf("  result: %s/result.json\n", config->out_dir.c_str());
    return 0;
  };
}

}  // namespace augur

// `augur single`: the efficient single-node baseline (Hogwild threads, no PS).
//
// It accepts only the flags it uses (AddSingleFlags). The cluster flags
// (AddClusterFlags, AddClusterWorkloadFlags, AddNetworkModelFlags: --nodes, --policy, --sync-*,
// --sampling, --lookahead, checkpoints, ...) are registered hidden, so that giving one is refused
// with one line naming it instead of being ignored.
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "experiments/cli/command.h"
#include "experiments/cli/dir_lock.h"
#include "experiments/cli/result_summary.h"
#include "experiments/cli/run_flags.h"
#include "experiments/config/model_memory.h"
#include "experiments/single/single_runner.h"

namespace augur {

namespace {

std::string RefusalReason(const std::string& flag) {
  if (flag == "--checkpoint-dir" || flag == "--checkpoint-every" || flag == "--resume")
    return flag + ": augur single has no checkpoints (augur loopback|sim|run|launch have)";
  return flag +
         " is a cluster flag: augur single trains in one process without a parameter server "
         "(see augur single --help; use augur loopback|sim|run|launch for a cluster)";
}

}  // namespace

CommandFn AddSingleCommand(CLI::App& root) {
  auto config = std::make_shared<RunConfig>();
  auto text = std::make_shared<RunFlagText>();
  CLI::App* app = root.add_subcommand(
      "single",
      "Train kge|wv|mf with the efficient single-node baseline: T Hogwild threads over one "
      "shared model, no parameter server (epoch times are wall time)");
  config->workload = "kge";
  config->workers = 2;
  AddSingleFlags(*app, config.get());
  app->get_option("--workload")->description("Workload: kge|wv|mf");
  app->get_option("--workers")->description("Training threads (same as --threads)");
  app->add_option("--threads", config->workers, "Training threads (same as --workers)")
      ->capture_default_str();
  app->get_option("--dim")->description(
      "kge: complex dimension, rows of 2×dim floats (32); wv: embedding dimension (32); mf: "
      "rank (32)");
  app->get_option("--batch-size")
      ->description("Mini-batch size: triples (kge, 128), sentences (wv, 16), ratings (mf, 256)");
  auto check = std::make_shared<bool>(false);
  AddCheckFlagsFlag(*app, check.get());
  auto refused = std::make_shared<std::vector<std::pair<std::string, CLI::Option*>>>();
  CLI::App cluster;  // the cluster flags, to mirror them hidden on `single`
  RunConfig ignored;
  RunFlagText ignored_text;
  AddClusterFlags(cluster, &ignored);
  AddClusterWorkloadFlags(cluster, &ignored);
  AddNetworkModelFlags(cluster, &ignored_text);
  for (const CLI::Option* c : cluster.get_options()) {
    if (c == cluster.get_help_ptr() || c->get_lnames().empty()) continue;
    const std::string name = "--" + c->get_lnames().front();
    CLI::Option* o = c->get_expected_max() == 0 ? app->add_flag(name) : app->add_option(name);
    o->group("");  // hidden from --help
    refused->emplace_back(name, o);
  }
  return [config, text, refused, app, check]() -> int {
    for (const auto& [name, o] : *refused)
      if (o->count() > 0) return UsageError(RefusalReason(name));
    if (app->count("--workers") > 0 && app->count("--threads") > 0)
      return UsageError("--workers and --threads are the same setting: give one of them");
    if (app->count("--threads") > 0 && config->workers == 0)
      return UsageError("--threads must be at least 1");
    config->backend = "single";
    config->nodes = 1;
    if (Status s = FinishRunConfig(*text, config.get()); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagsApply(*app, *config); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagModelMemory(*config); !s.ok()) return UsageError(s.message());
    if (*check) return 0;
    Result<SingleRun> run = SingleRun::Load(*config);
    if (!run.ok()) return InputError(run.status().message());  // bad data: exit 2
    std::vector<DirLock> locks;  // --out and --checkpoint-dir, until the run ends
    if (Status s = LockRunDirs(*config, &locks); !s.ok()) return UsageError(s.message());
    Result<RunResult> r = run->Run();
    if (!r.ok()) return RunError(r.status().message());
    const nlohmann::json j = r->ToJson(config->ToJson());
    if (!config->out_dir.empty()) {
      if (Status s = WriteResultJson(config->out_dir, j); !s.ok()) return RunError(s.message());
    }
    PrintResultSummary(j, stdout);
    if (!config->out_dir.empty())
      std::printf("  result: %s/result.json\n", config->out_dir.c_str());
    return DivergenceExitCode(j, 0);
  };
}

}  // namespace augur

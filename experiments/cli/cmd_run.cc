// `augur run`: one node of a TCP cluster as this process (see backends/tcp).
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "experiments/cli/command.h"
#include "experiments/cli/dir_lock.h"
#include "experiments/cli/result_summary.h"
#include "experiments/cli/run_flags.h"
#include "experiments/cli/tcp_flags.h"
#include "experiments/config/model_memory.h"
#include "experiments/drivers/tcp_driver.h"

namespace augur {

CommandFn AddRunCommand(CLI::App& root) {
  auto config = std::make_shared<RunConfig>();
  auto text = std::make_shared<RunFlagText>();
  auto tcp_text = std::make_shared<TcpFlagText>();
  CLI::App* app = root.add_subcommand(
      "run",
      "Run ONE node of a TCP cluster in this process (rank 0 coordinates). Rank and size come "
      "from --rank/--nodes, or from srun (SLURM_PROCID/SLURM_NTASKS) or mpirun "
      "(OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE). Writes OUT/rank-R/result.json");
  AddRunFlags(*app, config.get());
  AddWorkloadFlags(*app, config.get());
  AddTcpFlags(*app, tcp_text.get());
  return [config, text, tcp_text, app]() -> int {
    config->backend = "tcp";
    tcp::TcpOptions options;
    std::optional<uint32_t> nodes_flag;
    if (app->count("--nodes") > 0) nodes_flag = config->nodes;
    if (Status s = FinishTcpOptions(*tcp_text, nodes_flag, &options); !s.ok()) {
      return UsageError(s.message());
    }
    config->nodes = options.nodes;
    if (Status s = FinishRunConfig(*text, config.get()); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagsApply(*app, *config); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagModelMemory(*config); !s.ok()) return UsageError(s.message());
    Result<std::unique_ptr<Job>> job = MakeJob(*config);
    if (!job.ok()) return UsageError(job.status().message());
    // The ranks of one cluster share its directories: rank 0 locks them for all.
    std::vector<DirLock> locks;
    if (options.rank == 0) {
      if (Status s = LockRunDirs(*config, &locks); !s.ok()) return UsageError(s.message());
    }
    Result<RunResult> r = RunOnTcp(*config, options, **job);
    if (!r.ok())
      return RunError("rank " + std::to_string(options.rank) + ": " + r.status().message());
    nlohmann::json config_json = config->ToJson();
    config_json["tcp"] = TcpOptionsJson(options);
    nlohmann::json j = r->ToJson(config_json);
    j["rank"] = options.rank;
    j["wire_security"] = tcp::WireSecurityName(options.wire_security);
    const std::string dir = config->out_dir + "/rank-" + std::to_string(options.rank);
    if (!config->out_dir.empty()) {
      if (Status s = WriteResultJson(dir, j); !s.ok()) return RunError(s.message());
    }
    if (options.rank == 0) PrintResultSummary(j, stdout);
    const bool verified = !r->verified.has_value() || *r->verified;
    std::printf("rank %u done%s%s\n", options.rank,
                r->verified.has_value() ? (verified ? ", verified" : ", VERIFICATION FAILED") : "",
                config->out_dir.empty() ? "" : (", result: " + dir + "/result.json").c_str());
    return DivergenceExitCode(j, verified ? 0 : 1);
  };
}

}  // namespace augur

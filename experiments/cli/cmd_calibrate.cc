// `augur calibrate`: measures the simulator's compute costs on this machine.
#include <cstdio>
#include <memory>

#include "experiments/calibration/cost_calibration.h"
#include "experiments/cli/command.h"
#include "experiments/cli/run_flags.h"

namespace augur {

CommandFn AddCalibrateCommand(CLI::App& root) {
  auto config = std::make_shared<RunConfig>();
  auto out = std::make_shared<std::string>("costs.json");
  CLI::App* app = root.add_subcommand(
      "calibrate",
      "Measure the workload's compute cost per key and the protocol's cost per message on "
      "this machine, and write them for `augur sim --costs FILE`");
  app->add_option("--workload", config->workload, "Workload: zipf")->capture_default_str();
  app->add_option("--keys", config->zipf.keys, "zipf: number of keys")->capture_default_str();
  app->add_option("--dim", config->zipf.dim, "zipf: floats per value")->capture_default_str();
  app->add_option("--batch-size", config->zipf.batch_size, "zipf: key accesses per mini-batch")
      ->capture_default_str();
  app->add_option("--pattern", config->pattern, "zipf access pattern")->capture_default_str();
  app->add_option("--seed", config->seed, "Seed")->capture_default_str();
  app->add_option("--out", *out, "Costs file to write")->capture_default_str();
  return [config, out]() -> int {
    config->backend = "calibrate";
    if (Status s = config->Validate(); !s.ok()) return UsageError(s.message());
    Result<SimCosts> costs = CalibrateCosts(*config);
    if (!costs.ok()) return RunError(costs.status().message());
    if (Status s = WriteCostsFile(*out, *costs); !s.ok()) return RunError(s.message());
    std::printf(
        "calibrated %s on %s:\n  %.1f ns per key access\n  %.1f ns + %.3f ns/byte per "
        "handled message\n  written: %s\n",
        costs->workload.c_str(), costs->machine.c_str(), 1e9 * costs->seconds_per_key,
        1e9 * costs->seconds_per_message, 1e9 * costs->seconds_per_message_byte, out->c_str());
    return 0;
  };
}

}  // namespace augur

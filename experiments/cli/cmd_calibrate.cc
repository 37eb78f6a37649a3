// `augur calibrate`: measures this machine's and the real code's costs for the simulator.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "experiments/calibration/cost_calibration.h"
#include "experiments/cli/command.h"
#include "experiments/cli/run_flags.h"
#include "experiments/config/model_memory.h"
#include "experiments/launch/stop_request.h"

namespace augur {

namespace {

struct CalibrateFlags {
  std::string workload = "zipf";
  std::string out = "costs.json";
  std::string work_dir;  // empty: a temporary directory, removed afterwards
  CalibrationOptions options;
};

// The workload's flags (those of `augur launch -- ...`) parsed into a config.
Result<RunConfig> ParseRunFlags(const std::string& workload,
                                const std::vector<std::string>& flags) {
  RunConfig config;
  CLI::App app("calibrate");
  AddRunFlags(app, &config);
  AddWorkloadFlags(app, &config);
  try {
    app.parse(std::vector<std::string>(flags.rbegin(), flags.rend()));
  } catch (const CLI::ParseError& e) {
    return Status::Error(std::string("workload flags: ") + e.what());
  }
  for (const char* reserved : {"--workload", "--epochs", "--out", "--nodes"})
    if (app.count(reserved) > 0)
      return Status::Error(std::string(reserved) +
                           " is set by the calibration (give the workload with --workload; "
                           "--base-epochs and --extra-epochs set the runs' epochs)");
  config.workload = workload;
  config.nodes = 2;
  config.backend = "calibrate";
  if (Status s = config.Validate(); !s.ok()) return s;
  if (Status s = CheckFlagsApply(app, config); !s.ok()) return s;
  // Its runs are TCP processes, all on this machine: every share of the model here.
  RunConfig here = config;
  here.backend = "tcp";
  if (Status s = CheckFlagModelMemory(here, here.nodes); !s.ok()) return s;
  return config;
}

// The costs file can be written (checked before minutes of calibration): a
// file path, not a directory, whose directory takes a new file.
Status CheckCostsOut(const std::string& out) {
  if (out.empty()) return Status::Error("--out is empty: give the costs file to write");
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec))
    return Status::Error("--out " + out + " is a directory: give the costs file to write");
  const std::string probe = out + ".tmp";
  {
    std::ofstream f(probe);
    if (!f) return Status::Error("--out: cannot write " + probe + ": " + std::strerror(errno));
  }
  std::filesystem::remove(probe, ec);
  return Status::Ok();
}

// What the calibration runs would refuse only after minutes of measuring:
// their worker count (--measure-workers) and a checkpoint directory that
// cannot be written (the runs write there: a file is created and removed).
Status CheckRunsUpFront(const CalibrateFlags& f, const RunConfig& config) {
  if (f.options.measure_workers > 0) {
    RunConfig runs = config;
    runs.workers = f.options.measure_workers;
    if (Status s = runs.Validate(); !s.ok())
      return s.WithContext("--measure-workers " + std::to_string(f.options.measure_workers) +
                           " (the calibration runs' --workers)");
  }
  const std::string& dir = config.checkpoint_dir;
  if (dir.empty()) return Status::Ok();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("--checkpoint-dir " + dir + ": cannot create it: " + ec.message());
  const std::string probe = dir + "/.augur-probe";
  {
    std::ofstream out(probe);
    if (!out)
      return Status::Error("--checkpoint-dir " + dir + ": cannot write " + probe + ": " +
                           std::strerror(errno));
  }
  std::filesystem::remove(probe, ec);
  return Status::Ok();
}

int Calibrate(CalibrateFlags& f, const std::vector<std::string>& extras) {
  Result<RunConfig> config = ParseRunFlags(f.workload, extras);
  if (!config.ok()) return UsageError(config.status().message());
  if (Status s = CheckCostsOut(f.out); !s.ok()) return UsageError(s.message());
  if (Status s = CheckRunsUpFront(f, *config); !s.ok()) return UsageError(s.message());
  if (f.options.base_epochs == 0 || f.options.extra_epochs == 0)
    return UsageError("--base-epochs and --extra-epochs must be at least 1");
  f.options.run_flags = extras;
  // SIGTERM or Ctrl-C: the running child stops, the temporary directory goes.
  InstallStopRequest();
  bool temporary = false;
  if (f.work_dir.empty()) {
    char dir[] = "/tmp/augur-calibrate-XXXXXX";
    if (mkdtemp(dir) == nullptr) return RunError("cannot create a temporary directory");
    f.work_dir = dir;
    temporary = true;
  }
  f.options.work_dir = f.work_dir;
  Result<SimCosts> costs = CalibrateCosts(*config, f.options);
  std::error_code ec;
  if (temporary) std::filesystem::remove_all(f.work_dir, ec);
  if (const int sig = StopRequested(); sig != 0) {
    std::fprintf(stderr, "augur: calibrate interrupted (%s)%s\n", StopSignalName(sig).c_str(),
                 temporary ? "; its temporary directory was removed" : "");
    return 128 + sig;
  }
  if (!costs.ok()) return RunError(costs.status().message());
  if (Status s = WriteCostsFile(f.out, *costs); !s.ok()) return RunError(s.message());
  std::printf("calibrated %s on %s:\n", costs->workload.c_str(), costs->machine.c_str());
  if (costs->seconds_per_sample >= 0)
    std::printf("  %.1f ns per sample (worker), %.1f ns more in the first epoch\n",
                1e9 * costs->seconds_per_sample, 1e9 * costs->first_epoch_extra_seconds_per_sample);
  if (costs->seconds_per_key >= 0)
    std::printf("  %.1f ns per key access (worker), %.1f ns more in the first epoch\n",
                1e9 * costs->seconds_per_key, 1e9 * costs->first_epoch_extra_seconds_per_sample);
  if (costs->time_sliced_processes > 0) {
    const bool per_key = costs->seconds_per_key_time_sliced >= 0;
    std::printf(
        "  %.1f ns per %s time-sliced (%u processes on %u cores; `augur sim --time-sliced`)\n",
        1e9 *
            (per_key ? costs->seconds_per_key_time_sliced : costs->seconds_per_sample_time_sliced),
        per_key ? "key access" : "sample", costs->time_sliced_processes, costs->cores);
  }
  std::printf("  wake-up delay: %.1f us on a busy node (%s)\n", 1e6 * costs->wakeup_delay_seconds,
              costs->wakeup_delay_source.c_str());
  if (costs->time_sliced_wakeup_delay_seconds >= 0)
    std::printf("  wake-up delay time-sliced: %.1f us on every message (%s)\n",
                1e6 * costs->time_sliced_wakeup_delay_seconds,
                costs->time_sliced_wakeup_delay_source.c_str());
  std::printf(
      "  %.1f ns + %.3f ns/byte per handled message (%.1f ns + the bytes when it finds the "
      "node awake, %.1f ns + the bytes for each that arrives with others)\n"
      "  loopback: %.1f us one way (%s), %.2f GB/s\n"
      "  written: %s\n",
      1e9 * costs->seconds_per_message, 1e9 * costs->seconds_per_message_byte,
      1e9 * costs->AwakeMessageSeconds(0), 1e9 * costs->CoalescedMessageSeconds(0),
      1e6 * costs->loopback_latency_seconds, costs->loopback_latency_source.c_str(),
      costs->loopback_bandwidth_bytes_per_second / 1e9, f.out.c_str());
  return 0;
}

}  // namespace

CommandFn AddCalibrateCommand(CLI::App& root) {
  auto f = std::make_shared<CalibrateFlags>();
  CLI::App* app = root.add_subcommand(
      "calibrate",
      "Measure on this machine what an Augur worker costs per sample (kge|wv|mf; zipf: per key "
      "access; the CPU of the later epochs of a real 2-process TCP run on loopback, and of "
      "one of cores + 1 processes time-sliced on this machine's cores), the protocol's cost "
      "per message "
      "and byte, the core count and the loopback link, and write them for `augur sim --costs "
      "FILE`. Other flags are the workload's (as for `augur launch -- ...`: --data, --policy, "
      "--workers, --dim, --sampling, ...)");
  app->add_option("--workload", f->workload, "Workload: kge | wv | mf | zipf")
      ->capture_default_str();
  app->add_option("--out", f->out, "Costs file to write")->capture_default_str();
  app->add_option("--base-epochs", f->options.base_epochs,
                  "First epochs of the run, not measured (start-up, first touches)")
      ->capture_default_str();
  app->add_option("--extra-epochs", f->options.extra_epochs,
                  "Epochs measured after them (more when their CPU is under 4 s)")
      ->capture_default_str();
  app->add_option("--measure-workers", f->options.measure_workers,
                  "Workers per process in the calibration run (0: one per core of each "
                  "of the 2 processes, at most the job's --workers, so that no worker waits "
                  "for a core)")
      ->capture_default_str();
  app->add_option("--work-dir", f->work_dir,
                  "Keep the calibration runs here (default: a temporary directory)");
  app->allow_extras();
  return [f, app]() -> int { return Calibrate(*f, app->remaining()); };
}

}  // namespace augur

// `augur compare`: runs the single-node baseline and a policy x nodes matrix
// as child processes of this binary, then writes results.csv, report.md and
// the plots (experiments/compare/).
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "experiments/cli/command.h"
#include "experiments/cli/dir_lock.h"
#include "experiments/cli/run_flags.h"
#include "experiments/compare/baseline_check.h"
#include "experiments/compare/child_run.h"
#include "experiments/compare/compare_plan.h"
#include "experiments/compare/report_writer.h"
#include "experiments/compare/results_csv.h"
#include "experiments/config/flag_list.h"
#include "experiments/launch/stop_request.h"
#include "simulator/costs_file.h"

#ifndef AUGUR_SOURCE_DIR
#define AUGUR_SOURCE_DIR "."
#endif

namespace augur {

namespace {

struct CompareFlags {
  CompareOptions options;
  std::string policies = "classic,replicate-all,relocate,nups,adaptive";
  std::string nodes = "1,2,4,8";
  std::string plot_script = std::string(AUGUR_SOURCE_DIR) + "/experiments/compare/plot_compare.py";
  std::string python = "/usr/bin/python3";
  // Reuse these result.json files of `augur single` (comma-separated) instead of running it.
  std::string baseline;
  bool no_plots = false;
};

// The extras a command with `add` flags understands, in order.
std::vector<std::string> Subset(const std::vector<std::string>& extras,
                                void (*add)(CLI::App&, RunConfig*)) {
  auto ignored = std::make_unique<RunConfig>();
  CLI::App app("subset");
  add(app, ignored.get());
  app.allow_extras();
  try {
    app.parse(std::vector<std::string>(extras.rbegin(), extras.rend()));
  } catch (const CLI::ParseError&) {
    return {};  // a bad value: the matrix run reports it
  }
  const std::vector<std::string> unknown = app.remaining();
  std::vector<std::string> subset;
  size_t u = 0;
  for (const std::string& e : extras) {
    if (u < unknown.size() && e == unknown[u]) {
      ++u;
    } else {
      subset.push_back(e);
    }
  }
  return subset;
}

// The extras `augur single` understands (AddSingleFlags), in order.
std::vector<std::string> SingleSubset(const std::vector<std::string>& extras) {
  return Subset(extras, AddSingleFlags);
}

// The extras `augur launch -- ...` and `augur calibrate` understand: run and workload flags.
std::vector<std::string> LaunchSubset(const std::vector<std::string>& extras) {
  return Subset(extras, [](CLI::App& app, RunConfig* c) {
    AddRunFlags(app, c);
    AddWorkloadFlags(app, c);
  });
}

std::string CommandLine(const CompareFlags& f) {
  const CompareOptions& o = f.options;
  std::string s = "augur compare --backend " + o.backend + " --workload " + o.workload;
  if (!o.data_dir.empty()) s += " --data " + o.data_dir;
  s += " --policies " + f.policies + " --nodes " + f.nodes + " --epochs " +
       std::to_string(o.epochs) + " --workers " + std::to_string(o.workers) + " --seed " +
       std::to_string(o.seed) + " --out " + o.out_dir;
  if (o.single_threads > 0) s += " --threads " + std::to_string(o.single_threads);
  for (const std::string& e : o.matrix_flags) s += " " + e;
  return s;
}

// Starts `run` as a child into its own directory, its output in log.txt,
// after the progress line `[compare] label ...`; returns its outcome.
Result<ChildOutcome> StartLogged(const PlannedRun& run, const std::string& label) {
  std::error_code ec;
  std::filesystem::create_directories(run.out_dir, ec);
  if (ec) return Status::Error("cannot create " + run.out_dir + ": " + ec.message());
  std::fprintf(stderr, "[compare] %s ...", label.c_str());
  std::fflush(stderr);
  Result<ChildOutcome> out = RunChild(run.args, run.out_dir + "/log.txt");
  if (!out.ok()) std::fputc('\n', stderr);  // its error on a line of its own
  return out;
}

// The error for a child that exited non-zero: names `what`, ends with its log.
Status ChildFailed(const std::string& what, const PlannedRun& run, const ChildOutcome& out) {
  std::fprintf(stderr, " failed\n");
  const std::string log = run.out_dir + "/log.txt";
  return Status::Error(what + " failed (exit code " + std::to_string(out.exit_code) +
                       "); the end of " + log + ":\n" + TailOfFile(log, 6));
}

// Runs one planned run; a run whose training diverged (exit 1 with a result
// saying so) is a record marked diverged, any other failure an error quoting
// the end of its log.
Result<CompareRecord> Execute(const PlannedRun& run, size_t index, size_t total) {
  const std::string label =
      total > 0 ? std::to_string(index) + "/" + std::to_string(total) + " " + run.name
                : "  " + run.name;
  Result<ChildOutcome> out = StartLogged(run, label);
  if (!out.ok()) return out.status();
  const std::string path = run.out_dir + "/result.json";
  CompareRecord r;
  if (out->exit_code != 0) {
    // A run whose training diverged exits 1 with a result: reported as diverged.
    std::ifstream in(path);
    r.result = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!r.result->is_object() || !r.result->value("diverged", false))
      return ChildFailed("run " + run.name, run, *out);
    std::fprintf(stderr, " DIVERGED in %.1f s: %s\n", out->wall_seconds,
                 r.result->value("divergence", std::string()).c_str());
  } else {
    std::fprintf(stderr, " done in %.1f s\n", out->wall_seconds);
    std::ifstream in(path);
    try {
      r.result = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      return Status::Error("run " + run.name + " wrote no readable " + path + ": " + e.what());
    }
  }
  r.name = run.name;
  r.policy = run.policy.empty() ? "single" : run.policy;
  r.nodes = run.nodes;
  r.baseline = run.policy.empty();
  return r;
}

// `augur calibrate` as a child: writes OUT/costs.json.
Status Calibrate(const CompareOptions& o, size_t index, size_t total) {
  const PlannedRun run = PlanCalibration(o);
  Result<ChildOutcome> out =
      StartLogged(run, std::to_string(index) + "/" + std::to_string(total) + " calibrate (" +
                           run.policy + ", 2 local processes over TCP)");
  if (!out.ok()) return out.status();
  if (out->exit_code != 0) return ChildFailed("augur calibrate", run, *out);
  std::fprintf(stderr, " done in %.1f s\n", out->wall_seconds);
  return Status::Ok();
}

double MeanEpochSeconds(const nlohmann::json& result) {
  double sum = 0;
  size_t n = 0;
  for (const auto& e : result.value("epoch_seconds", nlohmann::json::array())) {
    sum += e.get<double>();
    ++n;
  }
  return n > 0 ? sum / static_cast<double>(n) : 0;
}

// The simulator's prediction of a TCP run, recorded in its result as sim_prediction.
Status Predict(const CompareOptions& o, const PlannedRun& tcp_run, CompareRecord* record) {
  const PlannedRun run = PlanPrediction(o, tcp_run);
  Result<CompareRecord> p = Execute(run, 0, 0);
  if (!p.ok()) return p.status();
  const double predicted = MeanEpochSeconds(p->result);
  const double measured = MeanEpochSeconds(record->result);
  record->result["sim_prediction"] = {
      {"epoch_seconds_mean", predicted},
      {"ratio_to_measured", measured > 0 ? predicted / measured : 0.0},
      {"costs_file", o.costs_file},
      {"compute", "hybrid"}};
  return Status::Ok();
}

// A result.json of an earlier `augur single` run of the workload, its fields
// checked (baseline_check.h; its setup is checked by the caller).
Result<JsonValue> ReadBaselineRun(const std::string& path, const CompareOptions& o) {
  std::ifstream in(path);
  if (!in) return Status::Error("--baseline " + path + ": cannot read it");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Error("--baseline " + path + ": not valid JSON");
  if (Status s = CheckBaselineFields(j, path, o.workload); !s.ok()) return s;
  return JsonValue(std::move(j));
}

// The config `augur single` records for compare's own baseline (RunConfig::ToJson).
Result<nlohmann::json> BaselineConfig(const CompareOptions& o, uint32_t cores) {
  auto config = std::make_unique<RunConfig>();
  CLI::App app("single");
  AddSingleFlags(app, config.get());
  try {
    app.parse(std::vector<std::string>(o.single_flags.rbegin(), o.single_flags.rend()));
  } catch (const CLI::ParseError& e) {
    return Status::Error(std::string("the flags for augur single: ") + e.what());
  }
  config->backend = "single";
  config->nodes = 1;
  config->workload = o.workload;
  config->epochs = o.epochs;
  config->seed = o.seed;
  config->data_dir = o.data_dir;
  config->workers = SingleThreads(o, cores);
  if (Status s = FinishRunConfig(RunFlagText{}, config.get()); !s.ok()) return s;
  return config->ToJson();
}

// The baseline record from --baseline's files: the first is its result, the
// others its repeats, except a one-thread run of a baseline of several
// threads (compare's single-t1), which is its one-thread timing run. Each
// must have trained what compare's own baseline would (baseline_check.h).
Result<CompareRecord> ReadBaseline(const std::string& paths, const CompareOptions& o,
                                   uint32_t cores) {
  std::optional<nlohmann::json> config;
  if (!IsPythonWorkload(o.workload)) {
    Result<nlohmann::json> c = BaselineConfig(o, cores);
    if (!c.ok()) return c.status();
    config = std::move(*c);
  }
  const BaselineExpectation expected{o.workload, o.epochs, config ? &*config : nullptr};
  CompareRecord r;
  r.name = "single";
  r.policy = "single";
  r.baseline = true;
  std::vector<std::string> seen;
  for (size_t at = 0; at <= paths.size();) {
    const size_t comma = std::min(paths.find(',', at), paths.size());
    const std::string path = paths.substr(at, comma - at);
    if (path.empty()) return Status::Error("--baseline " + paths + ": an empty file name");
    if (std::find(seen.begin(), seen.end(), path) != seen.end())  // it counted as its own repeat
      return Status::Error("--baseline " + paths + ": " + path + " is given twice");
    seen.push_back(path);
    Result<JsonValue> run = ReadBaselineRun(path, o);
    if (!run.ok()) return run.status();
    const bool timing = at > 0 && (*run)->at("workers_per_node").get<uint64_t>() == 1 &&
                        r.result->at("workers_per_node").get<uint64_t>() > 1;
    if (Status s = CheckBaselineSetup(*run, path, expected, timing); !s.ok()) return s;
    if (at == 0) {
      r.result = std::move(*run);
    } else if (timing) {
      if (r.baseline_one_thread.has_value())
        return Status::Error("--baseline " + paths + ": more than one one-thread run");
      r.baseline_one_thread = std::move(*run);
    } else {
      r.baseline_repeats.push_back(std::move(*run));
    }
    at = comma + 1;
  }
  std::fprintf(stderr, "[compare] baseline: %s\n", paths.c_str());
  return r;
}

// Runs the baseline `runs` times (run 1 is the record, the others its
// repeats), then its one-thread timing run if it has one.
Result<CompareRecord> RunBaseline(const CompareOptions& o, uint32_t cores, uint32_t runs,
                                  size_t total) {
  Result<CompareRecord> base = Execute(PlanSingle(o, cores, 1), 1, total);
  if (!base.ok()) return base.status();
  for (uint32_t k = 2; k <= runs; ++k) {
    Result<CompareRecord> again = Execute(PlanSingle(o, cores, k), k, total);
    if (!again.ok()) return again.status();
    base->baseline_repeats.push_back(again->result);
  }
  if (std::optional<PlannedRun> one = PlanSingleOneThread(o, cores)) {
    Result<CompareRecord> timing = Execute(*one, runs + 1, total);
    if (!timing.ok()) return timing.status();
    base->baseline_one_thread = timing->result;
  }
  return base;
}

// Runs each planned child command with --check-flags (command.h): the
// flags it would be given, checked by the command itself, none trained. The
// Python workloads' programs take flags of their own and are not checked.
Status CheckRunFlags(const CompareOptions& o, uint32_t cores) {
  if (IsPythonWorkload(o.workload)) return Status::Ok();
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) return Status::Error("cannot create " + o.out_dir + ": " + ec.message());
  std::vector<PlannedRun> runs = {PlanSingle(o, cores, 1)};
  if (std::optional<PlannedRun> one = PlanSingleOneThread(o, cores)) runs.push_back(*one);
  CompareOptions matrix = o;
  if (o.backend != "tcp" && !o.user_compute_per_sample) matrix.compute_per_sample = 1e-6;
  for (PlannedRun& r : PlanMatrix(matrix)) runs.push_back(std::move(r));
  const std::string log = o.out_dir + "/check-flags.log";
  for (PlannedRun& run : runs) {
    run.args.insert(run.args.begin() + 1, "--check-flags");
    Result<ChildOutcome> out = RunChild(run.args, log);
    if (!out.ok()) return out.status();
    if (out->exit_code == 0) continue;
    std::string why = TailOfFile(log, 1);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    why.erase(0, why.find_first_not_of(' '));
    for (const char* prefix : {"augur: error: ", "augur: "})
      if (why.rfind(prefix, 0) == 0) why.erase(0, std::strlen(prefix));
    return Status::Error("the flags of run " + run.name + " (`augur " + run.args[0] +
                         "`) are refused, so nothing was run: " + why);
  }
  std::filesystem::remove(log, ec);
  return Status::Ok();
}

Status Plot(const CompareFlags& f, ReportContext* context) {
  const std::string& out = f.options.out_dir;
  const std::vector<std::string> args = {f.python, f.plot_script, out + "/results.csv", out};
  std::string cmd;
  for (const std::string& a : args) cmd += "'" + a + "' ";
  cmd += "> '" + out + "/plot.log' 2>&1";
  std::fprintf(stderr, "[compare] plotting (%s)\n", f.plot_script.c_str());
  if (std::system(cmd.c_str()) != 0)
    return Status::Error("plotting failed: " + f.python + " " + f.plot_script + "; the end of " +
                         out + "/plot.log:\n" + TailOfFile(out + "/plot.log", 6));
  for (const char* png : {"speedup.png", "quality_time.png"})
    if (std::filesystem::exists(out + "/" + png)) context->plots.push_back(png);
  return Status::Ok();
}

int Compare(CompareFlags& f, const std::vector<std::string>& extras) {
  CompareOptions& o = f.options;
  Result<std::vector<std::string>> policies = ParsePolicyList(f.policies);
  if (!policies.ok()) return UsageError(policies.status().message());
  Result<std::vector<uint32_t>> nodes = ParseNodeList(f.nodes);
  if (!nodes.ok()) return UsageError(nodes.status().message());
  o.policies = *policies;
  o.nodes = *nodes;
  o.matrix_flags = extras;
  // A Python workload's program takes the same flags in both roles.
  o.single_flags = IsPythonWorkload(o.workload) ? extras : SingleSubset(extras);
  o.user_compute_per_sample = HasFlag(extras, "--compute-per-sample");
  o.launch_flags = LaunchSubset(extras);
  o.costs_file = FlagValue(extras, "--costs");
  o.costs_given = !o.costs_file.empty();
  // On tcp, --costs is compare's own (the predictions' costs, instead of
  // calibrating): `augur launch -- ...` does not take it.
  if (o.backend == "tcp") o.matrix_flags = WithoutFlag(o.matrix_flags, "--costs");
  if (Status s = o.Validate(); !s.ok()) return UsageError(s.message());
  // Its runs write into OUT/runs/NAME and lock those (dir_lock.h).
  Result<DirLock> lock = DirLock::Acquire(o.out_dir);
  if (!lock.ok()) return UsageError(lock.status().WithContext("--out").message());
  const auto start = std::chrono::steady_clock::now();
  const uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::vector<PlannedRun> first = PlanMatrix(o);
  // Python workloads (ctr, gnn) have no C++ job to calibrate or simulate.
  const bool calibrated =
      o.worker_cost == "calibrated" && o.backend != "loopback" && !IsPythonWorkload(o.workload);
  const bool calibrating = calibrated && o.costs_file.empty();
  const uint32_t baseline_repeats = f.baseline.empty() ? BaselineRuns(o, cores) : 1;
  const bool one_thread_timing = f.baseline.empty() && PlanSingleOneThread(o, cores).has_value();
  // The baseline's runs, its one-thread timing run included.
  const uint32_t baseline_runs = baseline_repeats + (one_thread_timing ? 1 : 0);
  const size_t total = first.size() + baseline_runs + (calibrating ? 1 : 0);
  // Every run's flags, checked by the command that will run it, before any starts.
  if (Status s = CheckRunFlags(o, cores); !s.ok()) return UsageError(s.message());
  std::vector<CompareRecord> records;
  Result<CompareRecord> base = Status::Error("no baseline");
  if (!f.baseline.empty()) {
    base = ReadBaseline(f.baseline, o, cores);
    if (!base.ok()) return InputError(base.status().message());
  }
  std::fprintf(
      stderr, "[compare] %s on %s: %zu runs (baseline x %u%s + %zu policies x %zu node counts)\n",
      o.workload.c_str(), o.backend.c_str(), total, baseline_repeats,
      one_thread_timing ? " + its one-thread timing" : "", o.policies.size(), o.nodes.size());
  if (f.baseline.empty()) base = RunBaseline(o, cores, baseline_repeats, total);
  if (!base.ok()) return RunError(base.status().message());
  records.push_back(*base);
  if (calibrating) {
    o.costs_file = o.out_dir + "/costs.json";
    if (Status s = Calibrate(o, baseline_runs + 1, total); !s.ok()) return RunError(s.message());
  }
  if (calibrated && o.backend == "sim" && !o.costs_given) {
    o.matrix_flags.push_back("--costs");
    o.matrix_flags.push_back(o.costs_file);
  }
  // A diverged baseline is no reference, of the modelled compute either: the
  // runs then model the workload's default cost per sample.
  const bool base_diverged = BaselineDiverged(*base);
  if (base_diverged)
    std::fprintf(stderr,
                 "[compare] the baseline diverged: no speed-up or quality verdict against it; "
                 "the other runs go on, for their own figures\n");
  std::string worker_cost_note;
  if (calibrated && !o.user_compute_per_sample) {
    Result<SimCosts> costs = ReadCostsFile(o.costs_file);
    if (!costs.ok()) return RunError(costs.status().message());
    char note[512];
    std::snprintf(note, sizeof(note),
                  "worker compute per sample charged in the simulated runs: %.3g us, the "
                  "calibrated Augur worker (`augur calibrate`, %s: %s)",
                  1e6 * costs->seconds_per_sample, o.costs_file.c_str(),
                  costs->worker_cost_source.c_str());
    worker_cost_note = note;
    if (!base_diverged) {
      std::snprintf(note, sizeof(note), ", not the Hogwild baseline's %.3g us per sample per core",
                    1e6 * BaselineSpeedOf(*base, cores).seconds_per_sample);
      worker_cost_note += note;
    }
    std::fprintf(stderr,
                 "[compare] worker compute per sample: %.3g us (calibrated Augur worker, %s)\n",
                 1e6 * costs->seconds_per_sample, o.costs_file.c_str());
  } else if (o.backend != "tcp" && !o.user_compute_per_sample && !base_diverged) {
    o.compute_per_sample = BaselineSpeedOf(*base, cores).seconds_per_sample;
    std::fprintf(stderr, "[compare] modelled compute per sample: %.3g us (from the baseline)\n",
                 1e6 * *o.compute_per_sample);
  }
  const std::vector<PlannedRun> matrix = PlanMatrix(o);
  for (size_t i = 0; i < matrix.size(); ++i) {
    Result<CompareRecord> r = Execute(matrix[i], i + baseline_runs + (calibrating ? 2 : 1), total);
    if (!r.ok()) return RunError(r.status().message());
    if (calibrated && o.backend == "tcp") {
      if (Status s = Predict(o, matrix[i], &*r); !s.ok()) return RunError(s.message());
    }
    records.push_back(*r);
  }
  DeriveFigures(o.workload, cores, &records);
  if (Status s = WriteResultsCsv(o.out_dir + "/results.csv", records); !s.ok())
    return RunError(s.message());
  ReportContext context{o, CommandLine(f), cores, 0, {}, "", worker_cost_note};
  Status plotted = Status::Ok();
  if (f.no_plots) {
    context.plot_note = "--no-plots was given";
  } else {
    plotted = Plot(f, &context);
    if (!plotted.ok()) context.plot_note = plotted.message();
  }
  context.compare_wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (Status s = WriteReport(o.out_dir + "/report.md", context, records); !s.ok())
    return RunError(s.message());
  std::printf("compare: %zu runs in %.0f s\n  results: %s/results.csv\n  report:  %s/report.md\n",
              records.size(), context.compare_wall_seconds, o.out_dir.c_str(), o.out_dir.c_str());
  if (Status s = ConvergenceOf(records, o.out_dir + "/report.md"); !s.ok())
    return RunError(s.message());
  if (!plotted.ok()) return RunError(plotted.message());
  return 0;
}

}  // namespace

CommandFn AddCompareCommand(CLI::App& root) {
  auto f = std::make_shared<CompareFlags>();
  CLI::App* app = root.add_subcommand(
      "compare",
      "Run the single-node baseline and every policy x node count of a workload (each run a "
      "child process), then write OUT/results.csv, OUT/report.md and PNG plots. Other flags "
      "(e.g. --platform, --compute, --dim, --negatives) are passed to every run; those `augur "
      "single` takes go to the baseline too");
  CompareOptions& o = f->options;
  app->add_option("--backend", o.backend, "sim | tcp (local processes) | loopback")
      ->capture_default_str();
  app->add_option("--workload", o.workload, "kge | wv | mf | ctr | gnn (Python, --backend tcp)")
      ->capture_default_str();
  app->add_option("--data", o.data_dir, "Prepared data set (default: the data cache)");
  app->add_option("--policies", f->policies, "Comma-separated policies")->capture_default_str();
  app->add_option("--nodes", f->nodes, "Comma-separated node counts")->capture_default_str();
  app->add_option("--epochs", o.epochs, "Epochs of every run")->capture_default_str();
  app->add_option("--workers", o.workers, "Workers per node")->capture_default_str();
  app->add_option("--threads", o.single_threads, "Baseline threads (default: min(workers, cores))")
      ->check(AtLeastOne());
  app->add_option("--seed", o.seed, "Seed of every run")->capture_default_str();
  app->add_option("--out", o.out_dir, "Output directory")->required();
  app->add_option("--plot-script", f->plot_script, "Plotting script")->capture_default_str();
  app->add_option("--python", f->python, "Python with matplotlib")->capture_default_str();
  app->add_option("--baseline", f->baseline,
                  "Reuse these result.json files of `augur single` runs (comma-separated; same "
                  "workload, epochs, data, seed and workload flags) instead of running the "
                  "baseline; a one-thread run among "
                  "runs of several threads is its one-thread timing (the speed reference takes "
                  "the faster of the two)");
  app->add_option("--baseline-runs", o.baseline_runs,
                  "Times the baseline runs; its quality is their mean, shown with their range "
                  "(default: 3 when it runs several threads, whose Hogwild updates make each "
                  "run differ; 1 with one thread)")
      ->check(CLI::Range(1u, 100u));
  app->add_flag("--no-plots", f->no_plots, "Do not draw the PNG plots");
  app->add_option("--worker-cost", o.worker_cost,
                  "Worker compute the sim runs charge: calibrated (`augur calibrate` first, 2 "
                  "local TCP processes, or the --costs FILE given: the real Augur worker's cost "
                  "per sample; tcp runs then get the simulator's prediction beside them) | "
                  "baseline (the Hogwild baseline's time per sample per core)")
      ->capture_default_str();
  app->allow_extras();
  return [f, app]() -> int {
    // Ctrl-C or SIGTERM: the running child gets SIGTERM, no further run
    // starts, the error says "interrupted (SIGINT)", and compare exits with
    // 128 + the signal. Without this compare died at once, silently (its
    // children stopped, as they end with their parent augur).
    InstallStopRequest();
    int code = 0;
    try {
      code = Compare(*f, app->remaining());
    } catch (const nlohmann::json::exception& e) {  // a result.json field of another type
      code = RunError(std::string("a run's result.json (or a --baseline file) has a field of an "
                                  "unexpected type: ") +
                      e.what());
    }
    const int sig = StopRequested();
    if (sig == 0) return code;
    if (code == 0)  // it came after the last run: what was written is complete
      std::fprintf(stderr, "augur: compare interrupted (%s) after its last run\n",
                   StopSignalName(sig).c_str());
    return 128 + sig;
  };
}

}  // namespace augur

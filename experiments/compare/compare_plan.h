// ComparePlan: the runs of one `augur compare` (the single-node baseline plus
// the policy x nodes matrix) as argument lists of augur subcommands.
//
// Each run is a child process of the same binary writing OUT/runs/NAME/result.json.
// Pass-through flags go to every matrix run; those `augur single` also
// understands (workload and run flags) go to the baseline too. Pure data and
// functions; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

struct CompareOptions {
  std::string backend = "sim";  // sim | tcp | loopback
  std::string workload = "kge";
  std::string data_dir;  // empty: each run uses the data cache
  std::vector<std::string> policies;
  std::vector<uint32_t> nodes;
  uint32_t epochs = 1;
  uint32_t workers = 4;         // per node
  uint32_t single_threads = 0;  // 0: min(workers, hardware cores)
  uint32_t baseline_runs = 0;   // 0: BaselineRuns decides
  uint64_t seed = 1;
  std::string out_dir;
  std::vector<std::string> matrix_flags;  // pass-through to every matrix run
  std::vector<std::string> single_flags;  // the subset `augur single` takes
  // Modelled compute seconds per sample for the matrix runs; set from the
  // baseline (CalibratedComputePerSample) unless the user gave one.
  std::optional<double> compute_per_sample;
  bool user_compute_per_sample = false;
  // Worker cost of the cluster runs: "calibrated" (sim: `augur calibrate`
  // first, or the --costs FILE given; its Augur worker cost per sample is
  // charged) or "baseline" (the Hogwild baseline's time per sample per core).
  std::string worker_cost = "calibrated";
  std::vector<std::string> launch_flags;  // the subset `augur launch -- ...` takes
  // The costs file the sim runs use (given or calibrated) and predictions read.
  std::string costs_file;
  bool costs_given = false;

  // Checks names, lists and reserved flags. Error names the flag.
  Status Validate() const;
};

struct PlannedRun {
  std::string name;    // "single", "sim-adaptive-n8", ...
  std::string policy;  // empty for the baseline
  uint32_t nodes = 1;
  std::string out_dir;            // OUT/runs/NAME
  std::vector<std::string> args;  // after the binary: subcommand and flags
};

// Run `run` (1-based) of the baseline (`augur single`): "single", then
// "single-r2", "single-r3", ... with the same flags and seed.
PlannedRun PlanSingle(const CompareOptions& o, uint32_t hardware_cores, uint32_t run = 1);
// The baseline's one-thread timing run, "single-t1" (the speed reference's
// other candidate: compare_record.h): one epoch, --no-eval, when the
// baseline runs several threads of a C++ workload; none otherwise.
std::optional<PlannedRun> PlanSingleOneThread(const CompareOptions& o, uint32_t hardware_cores);
// How often the baseline runs: baseline_runs, else 3 when it runs several
// threads (Hogwild: its update order, and so its model, differs run to run
// with the same seed) and 1 when it runs one (deterministic).
uint32_t BaselineRuns(const CompareOptions& o, uint32_t hardware_cores);
// The matrix, in policy-major order. REQUIRES: o validated.
std::vector<PlannedRun> PlanMatrix(const CompareOptions& o);

// ctr and gnn: Python workloads (experiments/python/augur/workloads), run as
// `python3 -m augur.workloads.NAME` under `augur launch` (the baseline with
// --baseline, one process); TCP backend only. Every pass-through flag goes to
// both (the programs' own flags).
bool IsPythonWorkload(const std::string& workload);

// `augur calibrate` of the workload with the launch flags: OUT/costs.json,
// its runs in OUT/runs/calibrate. Policy: adaptive if compared, else the first.
PlannedRun PlanCalibration(const CompareOptions& o);
// The simulator's prediction of a TCP run: `augur sim` of the same job with
// the calibrated costs and hybrid compute, into RUN/predicted.
PlannedRun PlanPrediction(const CompareOptions& o, const PlannedRun& tcp_run);

// Threads the baseline uses: single_threads, else min(workers, hardware cores).
uint32_t SingleThreads(const CompareOptions& o, uint32_t hardware_cores);

// Parses "1,2,4,8" / "classic,adaptive". Error names the flag and the item
// (an unknown one, or one given twice: "1,2,2" is refused, not merged).
Result<std::vector<uint32_t>> ParseNodeList(const std::string& text);
Result<std::vector<std::string>> ParsePolicyList(const std::string& text);

}  // namespace augur

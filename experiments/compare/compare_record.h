// CompareRecord: one finished run of a comparison (its result.json) plus the
// figures compare derives from it against the single-node baseline.
//
// Derived figures (DeriveFigures):
//   epoch_seconds_mean     mean of result.epoch_seconds
//   speedup_over_single    reference epoch / epoch_seconds_mean, where the
//                          reference is the baseline's measured time per sample
//                          per core (BaselineSecondsPerSample) times the run's
//                          samples per epoch, spread over reference_cores: a
//                          single node with the compute of one cluster node
//                          (ReferenceCores), scaled linearly from the measured
//                          baseline (linear scaling favours the baseline)
//   reference_cores        ReferenceCores of the run (the baseline: its threads
//                          on this machine's cores)
//   speedup_over_one_node  the same policy's 1-node epoch time / this one's
//   quality, quality_name  the workload's headline held-out metric
//   quality_ratio_to_single  quality / the baseline's quality
//   The baseline's quality is the mean over its runs (result and
//   baseline_repeats): quality_runs lists them, quality_min / quality_max
//   bound them, and quality_stderr is then the standard error of that mean
//   (their standard deviation / sqrt(runs)); its seconds_per_sample (the
//   speed reference) is the lower of the median over those runs
//   (seconds_per_sample_threads) and the one-thread timing run's
//   (seconds_per_sample_one_thread, when there is one; which one it is:
//   speed_reference "threads" | "one thread"). Why: Hogwild threads that
//   write the same rows pay for moving their cache lines between cores, and
//   on the 2-vCPU VM what that costs follows where the host places the
//   vCPUs: mf's 2-thread epoch swung between 0.025 and 0.075 s within a
//   minute while one thread took 0.039 s throughout. The lower figure is
//   the efficient single node the goal names, and it does not move with
//   the host.
//   train_loss_final       the last epoch's training loss
//   diverged               the run stopped because its loss diverged
//                          (jobs/divergence_guard.h); quality is then the
//                          string "diverged", never a number, and has no ratio
//   baseline_diverged      (every row) a run of the baseline diverged
//                          (BaselineDiverged): then no row has a
//                          speedup_over_single, reference_epoch_seconds or
//                          quality_ratio_to_single, the baseline's own row is
//                          diverged whichever of its runs it was, and its
//                          diverged_runs lists them (BaselineDivergences)
// Pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/report/json_value.h"

namespace augur {

struct CompareRecord {
  std::string name;    // "single", "sim-adaptive-n8"
  std::string policy;  // "single" for the baseline
  uint32_t nodes = 1;
  bool baseline = false;
  JsonValue result;                         // the run's result.json
  JsonValue derived = JsonValue::Object();  // figures listed above
  // The baseline only: the result.json of its further runs (--baseline-runs).
  std::vector<JsonValue> baseline_repeats;
  // The baseline only: its one-thread timing run when it runs several
  // threads (speed reference only; its quality is not the baseline's).
  std::optional<JsonValue> baseline_one_thread;
};

struct QualityMetric {
  std::string name;  // flattened result key, e.g. "quality.test_mrr"
  bool higher_is_better = true;
};

// kge: test MRR; wv: held-out loss; mf: test RMSE; ctr: test AUC; gnn: test accuracy.
QualityMetric HeadlineQuality(const std::string& workload);

// The baseline's time per sample on one core: its CPU seconds per epoch
// (summed over threads, epoch_cpu_seconds) per sample when recorded, else
// its wall time per epoch x min(threads, cores) per sample.
double BaselineSecondsPerSample(const nlohmann::json& single, uint32_t hardware_cores);

// The speed reference's time per sample per core, and where it came from:
// the lower of the median over the baseline's runs (`threads`) and its
// one-thread timing run's (`one_thread`, if it has one).
struct BaselineSpeed {
  double seconds_per_sample = 0;
  double threads = 0;
  std::optional<double> one_thread;
  bool from_one_thread = false;
};
BaselineSpeed BaselineSpeedOf(const CompareRecord& base, uint32_t hardware_cores);

// The cores of one node of the run, as the speed-up's single-node reference
// has them: one per worker, but no more than the node has. A simulated host
// has config.sim.host_cores cores (0: the simulator's default, workers + 1)
// at config.sim.host_speed_flops against the simulator's nominal speed
// (simulator/compute_model.h kReferenceFlopsPerSecond), so a host
// modelled on a 2-core machine counts 2 cores however many workers it runs.
// Other backends: the workers.
double ReferenceCores(const nlohmann::json& run);

// The baseline's runs that diverged, each as "NAME: its divergence message"
// (the message names the epoch: "single-r2: training diverged in epoch 1:
// loss nan; ..."). Names as compare gives its own runs: the record is
// "single", its repeats "single-r2", "single-r3", ..., its one-thread timing
// run "single-t1". Empty when none did.
std::vector<std::string> BaselineDivergences(const CompareRecord& base);
// Whether the baseline's run, any of its repeats or its one-thread timing run
// diverged. Such a baseline is no reference: DeriveFigures gives no speed-up
// or quality ratio against it, and the report no verdict.
bool BaselineDiverged(const CompareRecord& base);

// Whether the comparison measured anything: an error when every run
// diverged, the baseline included ("nothing converged"), or when the
// baseline did (its speed and quality are the references of every figure;
// the message names its diverged runs and their epochs). `report` is named
// in the message.
Status ConvergenceOf(const std::vector<CompareRecord>& records, const std::string& report);

// Fills every record's `derived`. records[0] must be the baseline.
void DeriveFigures(const std::string& workload, uint32_t hardware_cores,
                   std::vector<CompareRecord>* records);

// Mean of a JSON array of numbers (0 if empty or missing).
double MeanOf(const nlohmann::json& array);
// The number at dotted path "a.b.c" in j, if there is one.
std::optional<double> NumberAt(const nlohmann::json& j, const std::string& dotted);

}  // namespace augur

#include "experiments/compare/compare_record.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "simulator/compute_model.h"

namespace augur {

QualityMetric HeadlineQuality(const std::string& workload) {
  if (workload == "wv") return {"quality.heldout_loss", false};
  if (workload == "mf") return {"quality.test_rmse", false};
  if (workload == "ctr") return {"quality.test_auc", true};
  if (workload == "gnn") return {"quality.test_accuracy", true};
  return {"quality.test_mrr", true};
}

double MeanOf(const nlohmann::json& array) {
  if (!array.is_array() || array.empty()) return 0;
  double sum = 0;
  for (const auto& v : array) sum += v.is_number() ? v.get<double>() : 0.0;
  return sum / static_cast<double>(array.size());
}

std::optional<double> NumberAt(const nlohmann::json& j, const std::string& dotted) {
  const nlohmann::json* at = &j;
  std::stringstream parts(dotted);
  for (std::string part; std::getline(parts, part, '.');) {
    if (!at->is_object() || !at->contains(part)) return std::nullopt;
    at = &(*at)[part];
  }
  if (!at->is_number()) return std::nullopt;
  return at->get<double>();
}

namespace {

double SamplesPerEpoch(const nlohmann::json& r) {
  const double epochs = std::max(1.0, r.value("epochs", 1.0));
  return r.value("samples", 0.0) / epochs;
}

// The baseline's quality over its runs: their mean in place of the first
// run's, its standard error from their spread, the runs and their range.
void SummarizeBaselineRuns(const std::vector<double>& values, std::optional<double> mean,
                           nlohmann::json* d) {
  (*d)["quality_runs"] = values;
  if (!mean.has_value() || values.empty()) return;
  (*d)["quality"] = *mean;
  (*d)["quality_min"] = *std::min_element(values.begin(), values.end());
  (*d)["quality_max"] = *std::max_element(values.begin(), values.end());
  if (values.size() < 2) return;
  double ss = 0;
  for (double v : values) ss += (v - *mean) * (v - *mean);
  const double n = static_cast<double>(values.size());
  (*d)["quality_stderr"] = std::sqrt(ss / (n - 1)) / std::sqrt(n);
}

}  // namespace

double ReferenceCores(const nlohmann::json& run) {
  const double workers = std::max(1.0, run.value("workers_per_node", 1.0));
  const nlohmann::json* sim = nullptr;
  if (run.contains("config") && run["config"].is_object() && run["config"].contains("sim"))
    sim = &run["config"]["sim"];
  if (sim == nullptr || !sim->is_object()) return workers;
  double cores = sim->value("host_cores", 0.0);
  if (cores <= 0) cores = workers + 1;  // the simulator's default: workers + protocol
  const double speed =
      sim->value("host_speed_flops", kReferenceFlopsPerSecond) / kReferenceFlopsPerSecond;
  return std::max(1e-9, std::min(workers, cores) * speed);
}

double BaselineSecondsPerSample(const nlohmann::json& single, uint32_t hardware_cores) {
  const double per_epoch = SamplesPerEpoch(single);
  if (per_epoch <= 0) return 0;
  const double cpu = MeanOf(single.value("epoch_cpu_seconds", nlohmann::json::array()));
  if (cpu > 0) return cpu / per_epoch;
  const double threads = single.value("workers_per_node", 1.0);
  const double cores = std::max(1.0, std::min(threads, static_cast<double>(hardware_cores)));
  return MeanOf(single.value("epoch_seconds", nlohmann::json::array())) * cores / per_epoch;
}

BaselineSpeed BaselineSpeedOf(const CompareRecord& base, uint32_t hardware_cores) {
  std::vector<double> per_sample{BaselineSecondsPerSample(*base.result, hardware_cores)};
  for (const JsonValue& r : base.baseline_repeats)
    per_sample.push_back(BaselineSecondsPerSample(*r, hardware_cores));
  std::sort(per_sample.begin(), per_sample.end());
  BaselineSpeed s;
  s.threads = per_sample[per_sample.size() / 2];  // the median (upper)
  s.seconds_per_sample = s.threads;
  if (base.baseline_one_thread.has_value()) {
    const double one = BaselineSecondsPerSample(**base.baseline_one_thread, hardware_cores);
    if (one > 0) s.one_thread = one;
  }
  s.from_one_thread = s.one_thread.has_value() && *s.one_thread < s.threads;
  if (s.from_one_thread) s.seconds_per_sample = *s.one_thread;
  return s;
}

std::vector<std::string> BaselineDivergences(const CompareRecord& base) {
  std::vector<std::string> out;
  const auto add = [&out](const std::string& name, const nlohmann::json& r) {
    if (!r.is_object() || !r.value("diverged", false)) return;
    const nlohmann::json& why = r.value("divergence", nlohmann::json());
    out.push_back(name + ": " +
                  (why.is_string() ? why.get<std::string>() : std::string("training diverged")));
  };
  add("single", *base.result);
  for (size_t i = 0; i < base.baseline_repeats.size(); ++i)
    add("single-r" + std::to_string(i + 2), *base.baseline_repeats[i]);
  if (base.baseline_one_thread.has_value()) add("single-t1", **base.baseline_one_thread);
  return out;
}

bool BaselineDiverged(const CompareRecord& base) { return !BaselineDivergences(base).empty(); }

Status ConvergenceOf(const std::vector<CompareRecord>& records, const std::string& report) {
  const bool all = std::all_of(records.begin(), records.end(), [](const CompareRecord& r) {
    return r.result->value("diverged", false);
  });
  if (all)
    return Status::Error("nothing converged: every run, the baseline included, diverged (" +
                         report + "); check the data and the flags (e.g. a lower --lr)");
  if (records.empty()) return Status::Ok();
  const std::vector<std::string> diverged = BaselineDivergences(records.front());
  if (diverged.empty()) return Status::Ok();
  std::string runs;
  for (const std::string& d : diverged) runs += (runs.empty() ? "" : "; ") + d;
  return Status::Error("the baseline diverged (" + runs +
                       "), so it is no reference: no speed-up or quality verdict against it in " +
                       report + "; make it converge (e.g. a lower --lr) and compare again");
}

void DeriveFigures(const std::string& workload, uint32_t hardware_cores,
                   std::vector<CompareRecord>* records) {
  if (records->empty()) return;
  const QualityMetric q = HeadlineQuality(workload);
  CompareRecord& base = records->front();
  const double base_cores = std::max(1.0, std::min(base.result->value("workers_per_node", 1.0),
                                                   static_cast<double>(hardware_cores)));
  std::vector<const nlohmann::json*> base_runs{&*base.result};
  for (const JsonValue& r : base.baseline_repeats) base_runs.push_back(&*r);
  std::vector<double> base_qualities;
  for (const nlohmann::json* r : base_runs)
    if (std::optional<double> v = NumberAt(*r, q.name); v.has_value()) base_qualities.push_back(*v);
  // A diverged baseline is no reference, neither of speed nor of quality.
  const std::vector<std::string> base_divergences = BaselineDivergences(base);
  const bool base_diverged = !base_divergences.empty();
  const BaselineSpeed speed = BaselineSpeedOf(base, hardware_cores);
  const double per_core_per_sample = speed.seconds_per_sample;
  std::optional<double> base_quality;
  if (!base_diverged && !base_qualities.empty()) base_quality = MeanOf(base_qualities);
  std::map<std::string, double> one_node_epoch;  // policy -> 1-node epoch time
  for (const CompareRecord& r : *records) {
    if (r.nodes == 1 && !r.baseline)
      one_node_epoch[r.policy] = MeanOf(r.result->value("epoch_seconds", nlohmann::json::array()));
  }
  for (CompareRecord& r : *records) {
    nlohmann::json& d = r.derived;
    d = nlohmann::json::object();  // derived afresh: nothing of an earlier call stays
    const double epoch = MeanOf(r.result->value("epoch_seconds", nlohmann::json::array()));
    const double cores = r.baseline ? base_cores : ReferenceCores(r.result);
    const double reference = per_core_per_sample * SamplesPerEpoch(r.result) / cores;
    d["epoch_seconds_mean"] = epoch;
    d["reference_cores"] = cores;
    d["baseline_diverged"] = base_diverged;
    d["reference_epoch_seconds"] = base_diverged ? nlohmann::json() : nlohmann::json(reference);
    d["speedup_over_single"] = base_diverged ? nlohmann::json()
                               : epoch > 0   ? nlohmann::json(reference / epoch)
                                             : nlohmann::json(0.0);
    if (r.baseline) {
      d["seconds_per_sample"] = per_core_per_sample;
      d["seconds_per_sample_threads"] = speed.threads;
      d["seconds_per_sample_one_thread"] =
          speed.one_thread.has_value() ? nlohmann::json(*speed.one_thread) : nlohmann::json();
      d["speed_reference"] = speed.from_one_thread ? "one thread" : "threads";
    }
    const auto one = one_node_epoch.find(r.policy);
    d["speedup_over_one_node"] = (one != one_node_epoch.end() && epoch > 0)
                                     ? nlohmann::json(one->second / epoch)
                                     : nlohmann::json();
    d["quality_name"] = q.name;
    // A diverged run has no quality: "diverged" stands in its place. The
    // baseline is diverged when any of its runs is.
    const bool diverged = r.baseline ? base_diverged : r.result->value("diverged", false);
    if (r.baseline && base_diverged) d["diverged_runs"] = base_divergences;
    std::optional<double> quality;
    if (!diverged) quality = NumberAt(r.result, q.name);
    d["diverged"] = diverged;
    d["quality"] = diverged              ? nlohmann::json("diverged")
                   : quality.has_value() ? nlohmann::json(*quality)
                                         : nlohmann::json();
    // Its standard error where the workload reports one (kge: test_mrr_stderr).
    const std::optional<double> stderr_q =
        quality.has_value() ? NumberAt(r.result, q.name + "_stderr") : std::nullopt;
    d["quality_stderr"] = stderr_q.has_value() ? nlohmann::json(*stderr_q) : nlohmann::json();
    d["quality_ratio_to_single"] =
        (quality.has_value() && base_quality.has_value() && *base_quality != 0)
            ? nlohmann::json(*quality / *base_quality)
            : nlohmann::json();
    const nlohmann::json& losses = r.result->value("train_loss_per_epoch", nlohmann::json());
    d["train_loss_final"] = losses.is_array() && !losses.empty() ? losses.back() : nlohmann::json();
    const nlohmann::json& per_node = r.result->value("bytes_sent_per_node", nlohmann::json());
    d["bytes_sent_per_node_mean"] = MeanOf(per_node);
    d["bytes_sent_per_node_max"] =
        per_node.is_array() && !per_node.empty()
            ? *std::max_element(per_node.begin(), per_node.end(),
                                [](const auto& a, const auto& b) {
                                  return a.template get<double>() < b.template get<double>();
                                })
            : nlohmann::json(0.0);
  }
  if (base_runs.size() > 1 && !base_diverged)
    SummarizeBaselineRuns(base_qualities, base_quality, &*base.derived);
}

}  // namespace augur

#include "experiments/compare/report_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <utility>

#include "core/metrics/counter_list.h"
#include "core/sampling/sampling.h"

namespace augur {

namespace {

using CellFn = std::function<std::string(const CompareRecord&)>;

std::string Fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string Num(const nlohmann::json& j, const char* format) {
  return j.is_number() ? Fmt(format, j.get<double>()) : std::string("–");
}

const CompareRecord* Find(const std::vector<CompareRecord>& records, const std::string& policy,
                          uint32_t nodes) {
  for (const CompareRecord& r : records)
    if (!r.baseline && r.policy == policy && r.nodes == nodes) return &r;
  return nullptr;
}

// One table: a row per policy, a column per node count, and the baseline's
// figure in its own row when with_baseline.
void Table(std::ostream& out, const std::string& title, const std::string& note,
           const ReportContext& c, const std::vector<CompareRecord>& records, const CellFn& cell,
           bool with_baseline) {
  out << "### " << title << "\n\n";
  if (!note.empty()) out << note << "\n\n";
  out << "| policy |";
  for (uint32_t n : c.options.nodes) out << " " << n << (n == 1 ? " node" : " nodes") << " |";
  out << "\n|---|";
  for (size_t i = 0; i < c.options.nodes.size(); ++i) out << "---:|";
  out << "\n";
  if (with_baseline) {
    out << "| single-node baseline (" << records.front().result->value("workers_per_node", 0)
        << " threads) | " << cell(records.front()) << " |";
    for (size_t i = 1; i < c.options.nodes.size(); ++i) out << " |";
    out << "\n";
  }
  for (const std::string& p : c.options.policies) {
    out << "| " << p << " |";
    for (uint32_t n : c.options.nodes) {
      const CompareRecord* r = Find(records, p, n);
      out << " " << (r == nullptr ? std::string("–") : cell(*r)) << " |";
    }
    out << "\n";
  }
  out << "\n";
}

std::string Utc() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return buf;
}

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// The goal's setting: 8 nodes x 4 workers, ethernet-10g, hybrid compute, simulator.
// The reference's cores (CompareRecord reference_cores) of the runs other
// than the baseline: one figure when they agree.
std::string ReferenceCoresText(const std::vector<CompareRecord>& records) {
  std::vector<double> cores;
  for (const CompareRecord& r : records)
    if (!r.baseline) cores.push_back(r.derived->value("reference_cores", 0.0));
  if (cores.empty()) return "no cluster runs";
  const bool same =
      std::all_of(cores.begin(), cores.end(), [&](double x) { return x == cores[0]; });
  const std::string what =
      " (a simulated host's cores at its speed, at most one per worker; other backends: "
      "one per worker)";
  return same ? Fmt("%.3g", cores[0]) + " cores" + what
              : "per run: reference_cores in results.csv" + what;
}

std::string SettingGaps(const ReportContext& c, const CompareRecord& r) {
  std::vector<std::string> gaps;
  const nlohmann::json& cfg = r.result->value("config", nlohmann::json::object());
  if (c.options.backend != "sim") gaps.push_back("backend is " + c.options.backend + ", not sim");
  if (r.nodes != 8) gaps.push_back(std::to_string(r.nodes) + " nodes, not 8");
  if (r.result->value("workers_per_node", 0) != 4)
    gaps.push_back(std::to_string(r.result->value("workers_per_node", 0)) +
                   " workers per node, not 4");
  if (c.options.backend == "sim") {
    const nlohmann::json& sim = cfg.value("sim", nlohmann::json::object());
    if (sim.value("preset", std::string()) != "ethernet-10g")
      gaps.push_back("links are not the ethernet-10g preset");
    if (sim.value("compute", std::string()) != "hybrid")
      gaps.push_back("compute mode is " + sim.value("compute", std::string("?")) + ", not hybrid");
  }
  if (gaps.empty()) return "the goal's setting";
  std::string s = "differs from the goal's setting: ";
  for (size_t i = 0; i < gaps.size(); ++i) s += (i ? "; " : "") + gaps[i];
  return s;
}

// The range of a baseline's runs (DeriveFigures' quality_min / quality_max),
// if it ran several times. NumberAt looks first: a const json's operator[]
// must not meet a missing key.
std::optional<std::pair<double, double>> BaselineRange(const nlohmann::json& derived) {
  const std::optional<double> low = NumberAt(derived, "quality_min");
  const std::optional<double> high = NumberAt(derived, "quality_max");
  const nlohmann::json runs = derived.value("quality_runs", nlohmann::json());
  if (!runs.is_array() || runs.size() < 2 || !low.has_value() || !high.has_value())
    return std::nullopt;
  return std::make_pair(*low, *high);
}

// " (mean of N runs, MIN-MAX)" for a baseline run several times, else "".
std::string BaselineRunsText(const nlohmann::json& derived) {
  const std::optional<std::pair<double, double>> range = BaselineRange(derived);
  if (!range.has_value()) return "";
  return " (mean of " + std::to_string(derived.at("quality_runs").size()) + " runs, " +
         Fmt("%.4g", range->first) + "-" + Fmt("%.4g", range->second) + ")";
}

// The untrained model's value of the headline quality (its initial rows),
// as the baseline's run recorded it beside its own (jobs/quality_floor.h,
// RecordUntrained: "quality.untrained_heldout_loss"), if it did.
std::optional<double> UntrainedQuality(const std::vector<CompareRecord>& records,
                                       const QualityMetric& q) {
  const std::string prefix = "quality.";
  if (records.empty() || !records.front().baseline || q.name.rfind(prefix, 0) != 0)
    return std::nullopt;
  return NumberAt(*records.front().result, prefix + "untrained_" + q.name.substr(prefix.size()));
}

void Goals(std::ostream& out, const ReportContext& c, const std::vector<CompareRecord>& records) {
  const std::string& w = c.options.workload;
  const double goal = w == "wv" ? 4.0 : 6.0;
  const QualityMetric q = HeadlineQuality(w);
  out << "## Distance from the goals (issue 6, item 7)\n\n"
      << "Goal: in the simulator (8 nodes x 4 workers, ethernet-10g, hybrid compute), `adaptive` "
      << "reaches >= " << Fmt("%.0f", goal) << "x over the single-node baseline for " << w
      << ", with quality after equal epochs within 2% of the baseline; `classic` shows the "
      << "inefficiency the papers report.\n\n";
  uint32_t largest = c.options.nodes.back();
  for (uint32_t n : c.options.nodes)
    if (n == 8) largest = 8;
  const CompareRecord* adaptive = Find(records, "adaptive", largest);
  if (BaselineDiverged(records.front())) {
    out << "- **no verdict: the baseline diverged** (above), so there is no reference to measure "
           "a speed-up or a quality against.\n\n";
    return;
  }
  if (adaptive == nullptr) {
    out << "- adaptive was not part of this comparison: no verdict.\n";
  } else {
    const nlohmann::json& d = adaptive->derived;
    const double s = d.value("speedup_over_single", 0.0);
    out << "- adaptive, " << largest << " nodes (" << SettingGaps(c, *adaptive) << "): speed-up "
        << Fmt("%.2f", s) << "x over one node of " << Fmt("%.3g", d.value("reference_cores", 0.0))
        << " cores, goal " << Fmt("%.0f", goal) << "x: "
        << (s >= goal ? std::string("met")
                      : "missed by " + Fmt("%.2f", goal - s) + "x (" +
                            Fmt("%.0f", 100 * (goal - s) / goal) + "% short)")
        << ".\n";
    if (d.value("diverged", false)) {
      out << "- adaptive quality (" << q.name << "): **diverged** ("
          << adaptive->result->value("divergence", std::string("training loss ran away"))
          << "); goal within 2%: missed.\n";
    } else if (d["quality_ratio_to_single"].is_number()) {
      const double ratio = d["quality_ratio_to_single"].get<double>();
      const double gap = q.higher_is_better ? 1.0 - ratio : ratio - 1.0;  // > 0: worse
      const nlohmann::json& bd = records.front().derived;
      out << "- adaptive quality (" << q.name << "): " << Num(d["quality"], "%.4g")
          << " vs baseline " << Num(bd["quality"], "%.4g") << BaselineRunsText(bd) << ", "
          << (gap <= 0 ? std::string("no worse than the baseline")
                       : Fmt("%.1f", 100 * gap) + "% worse")
          << "; goal within 2%: " << (gap <= 0.02 + 1e-9 ? "met" : "missed");
      const std::optional<std::pair<double, double>> range = BaselineRange(bd);
      if (range.has_value() && d["quality"].is_number()) {
        const double v = d["quality"].get<double>();
        const bool inside = v >= range->first && v <= range->second;
        out << " (" << (inside ? "inside" : "outside") << " the range of the baseline's own runs)";
      }
      out << ".\n";
    } else {
      out << "- adaptive quality: not measured.\n";
    }
    // A baseline that has not learned yet makes the quality verdict compare
    // noise: one no better than its untrained rows by more than the standard
    // error of its mean (a single run: by anything).
    const std::optional<double> untrained = UntrainedQuality(records, q);
    const std::optional<double> base = NumberAt(records.front().derived, "quality");
    const double stderr_of_base = NumberAt(records.front().derived, "quality_stderr").value_or(0.0);
    if (untrained.has_value() && base.has_value() &&
        (q.higher_is_better ? *base - *untrained : *untrained - *base) <= stderr_of_base) {
      out << "- **the baseline's own model is not clearly better than its untrained rows** ("
          << q.name << " " << Fmt("%.4g", *base)
          << (stderr_of_base > 0 ? " ± " + Fmt("%.2g", stderr_of_base) : std::string())
          << " against " << Fmt("%.4g", *untrained) << " after " << c.options.epochs << " epoch"
          << (c.options.epochs == 1 ? "" : "s")
          << "): on this data the quality figures compare models that have not learned yet, "
             "and the quality verdict above says little; train more epochs (--epochs).\n";
    }
    const nlohmann::json& cfg = adaptive->result->value("config", nlohmann::json::object());
    if (cfg.contains("sampling") &&
        (cfg.value("workload", "") == "kge" || cfg.value("workload", "") == "wv")) {
      const std::string name = cfg["sampling"].value("scheme", "");
      if (Result<SampleScheme> scheme = ParseSampleScheme(name); scheme.ok())
        out << "- negatives drawn with `--sampling " << name
            << "`: " << SampleSchemeFidelity(*scheme) << ".\n";
    }
  }
  const CompareRecord* classic = Find(records, "classic", largest);
  if (classic != nullptr && adaptive != nullptr) {
    out << "- classic at " << largest
        << " nodes: " << Fmt("%.2f", classic->derived->value("speedup_over_single", 0.0)) << "x, "
        << Fmt("%.1f", classic->derived->value("bytes_sent_per_node_mean", 0.0) / 1e6)
        << " MB sent per node and "
        << Fmt("%.1f", 100 * classic->result->value("local_access_ratio", 0.0))
        << "% local accesses, against adaptive's "
        << Fmt("%.1f", adaptive->derived->value("bytes_sent_per_node_mean", 0.0) / 1e6)
        << " MB and " << Fmt("%.1f", 100 * adaptive->result->value("local_access_ratio", 0.0))
        << "%.\n";
  }
  out << "\n";
}

}  // namespace

// Where the baseline's time per sample comes from (compare_record.h): its
// runs on several threads or its one-thread timing run.
std::string SpeedReferenceText(const CompareRecord& base) {
  const nlohmann::json& d = *base.derived;
  const std::string runs =
      base.baseline_repeats.empty()
          ? std::string()
          : "the median of its " + std::to_string(base.baseline_repeats.size() + 1) + " runs";
  const std::optional<double> one = NumberAt(d, "seconds_per_sample_one_thread");
  if (!one.has_value()) return runs.empty() ? std::string() : ", " + runs;
  const std::string threads = Fmt("%.3g", 1e6 * d.value("seconds_per_sample_threads", 0.0)) +
                              " us per core on " +
                              std::to_string(base.result->value("workers_per_node", 0)) +
                              " threads" + (runs.empty() ? std::string() : ", " + runs);
  if (d.value("speed_reference", std::string()) == "one thread")
    return ", its one-thread timing run's, below its " + threads +
           " (Hogwild threads pay for moving the rows they share between cores, more or less "
           "as the host places them)";
  return ", " + threads + "; its one-thread timing run took " + Fmt("%.3g", 1e6 * *one) + " us";
}

namespace {

// What the speed-up table measures against: its reference, or that it has
// none (a diverged baseline).
std::string SpeedupNote(const ReportContext& c, const std::vector<CompareRecord>& records) {
  const CompareRecord& base = records.front();
  if (BaselineDiverged(base))
    return "None: the baseline diverged (above), so there is no reference. In parentheses: over "
           "the same policy on 1 node.";
  return "Reference: one node with the compute of a cluster node (" + ReferenceCoresText(records) +
         "), each core at the baseline's measured time per sample (" +
         Fmt("%.3g", 1e6 * base.derived->value("seconds_per_sample", 0.0)) + " us" +
         SpeedReferenceText(base) + "; " +
         (base.result->contains("epoch_cpu_seconds")
              ? std::string("CPU time of its threads, so other load on the machine does not "
                            "inflate it")
              : std::string("wall time x threads")) +
         "; " + std::to_string(base.result->value("workers_per_node", 0)) + " threads on " +
         std::to_string(c.hardware_cores) +
         " cores), scaled linearly. In parentheses: over the same policy on 1 node.";
}

}  // namespace

std::string ReportMarkdown(const ReportContext& c, const std::vector<CompareRecord>& records) {
  std::ostringstream out;
  const CompareOptions& o = c.options;
  const QualityMetric q = HeadlineQuality(o.workload);
  const CompareRecord& base = records.front();
  out << "# Augur policy comparison: " << o.workload << " on " << o.backend << "\n\n";
  out << "Written by `augur compare` on " << Utc() << ".\n\n";
  const std::vector<std::string> base_divergences = BaselineDivergences(base);
  if (!base_divergences.empty()) {
    out << "## The baseline diverged\n\n"
        << "A diverged baseline is no reference: this report has no speed-up over it, no quality "
           "ratio to it and no verdict on the goals. Make it converge (e.g. a lower --lr) and "
           "compare again. Its runs that diverged:\n\n";
    for (const std::string& d : base_divergences) out << "- " << d << "\n";
    out << "\n";
  }
  Goals(out, c, records);
  out << "## Results\n\n";
  Table(
      out, "Epoch time (s)",
      o.backend == "sim" ? "Simulated seconds per epoch (mean over epochs); the baseline's is "
                           "wall time on this machine."
                         : "Seconds per epoch (mean over epochs).",
      c, records,
      [](const CompareRecord& r) { return Num(r.derived["epoch_seconds_mean"], "%.4g"); }, true);
  Table(
      out, "Speed-up over the single-node baseline", SpeedupNote(c, records), c, records,
      [](const CompareRecord& r) {
        std::string s = Num(r.derived["speedup_over_single"], "%.2f");
        if (r.derived["speedup_over_one_node"].is_number())
          s += " (" + Num(r.derived["speedup_over_one_node"], "%.2f") + ")";
        return s;
      },
      false);
  const std::optional<double> untrained = UntrainedQuality(records, q);
  Table(
      out,
      "Quality reached (" + q.name + (q.higher_is_better ? ", higher" : ", lower") + " is better)",
      "After " + std::to_string(o.epochs) +
          " epochs (± its standard error where the workload reports one); in parentheses the "
          "ratio to the baseline's; then the last epoch's training loss. A baseline run several "
          "times (--baseline-runs) shows the mean of its runs, the standard error of that mean "
          "and their range: with several threads each run differs." +
          (untrained.has_value()
               ? " The untrained model (its initial rows) scores " + Fmt("%.4g", *untrained) + "."
               : std::string()),
      c, records,
      [](const CompareRecord& r) {
        if (r.baseline && BaselineDiverged(r)) return std::string("diverged (above)");
        if (r.derived->value("diverged", false))
          return "diverged; loss " + Num(r.derived["train_loss_final"], "%.4g");
        std::string s = Num(r.derived["quality"], "%.4g");
        if (r.derived["quality_stderr"].is_number())
          s += " ± " + Num(r.derived["quality_stderr"], "%.2g");
        if (r.baseline) s += BaselineRunsText(r.derived);
        if (!r.baseline && r.derived["quality_ratio_to_single"].is_number())
          s += " (" + Num(r.derived["quality_ratio_to_single"], "%.3f") + ")";
        return s + "; loss " + Num(r.derived["train_loss_final"], "%.4g");
      },
      true);
  Table(
      out, "Bytes sent per node (MB)", "Mean over nodes; maximum in parentheses.", c, records,
      [](const CompareRecord& r) {
        return Fmt("%.2f", r.derived->value("bytes_sent_per_node_mean", 0.0) / 1e6) + " (" +
               Fmt("%.2f", r.derived->value("bytes_sent_per_node_max", 0.0) / 1e6) + ")";
      },
      false);
  Table(
      out, "Local-access share", "", c, records,
      [](const CompareRecord& r) {
        return Fmt("%.1f%%", 100 * r.result->value("local_access_ratio", 0.0));
      },
      false);
  Table(
      out, "Relocations / replica syncs", "", c, records,
      [](const CompareRecord& r) {
        return std::to_string(
                   r.result->value(CounterName(NodeCounter::kRelocations), uint64_t{0})) +
               " / " +
               std::to_string(
                   r.result->value(CounterName(NodeCounter::kReplicaSyncs), uint64_t{0}));
      },
      false);
  bool predicted = false;
  for (const CompareRecord& r : records) predicted |= r.result->contains("sim_prediction");
  if (predicted) {
    out << "## The simulator's prediction beside each TCP measurement\n\n"
        << "`augur sim` of the same job with the calibrated costs (`--costs`, `--compute "
           "hybrid`; on this machine's loopback and cores):\n\n"
        << "| run | measured epoch (s) | predicted epoch (s) | predicted / measured |\n"
        << "|---|---:|---:|---:|\n";
    for (const CompareRecord& r : records) {
      if (!r.result->contains("sim_prediction")) continue;
      const nlohmann::json& p = r.result["sim_prediction"];
      double measured = 0;
      for (const auto& e : r.result["epoch_seconds"]) measured += e.get<double>();
      if (!r.result["epoch_seconds"].empty()) measured /= r.result["epoch_seconds"].size();
      out << "| " << r.name << " | " << Fmt("%.3f", measured) << " | "
          << Num(p["epoch_seconds_mean"], "%.3f") << " | " << Num(p["ratio_to_measured"], "%.2f")
          << " |\n";
    }
    out << "\n";
  }
  if (!c.plots.empty()) {
    out << "## Plots\n\n";
    for (const std::string& p : c.plots) out << "![" << p << "](" << p << ")\n\n";
  } else if (!c.plot_note.empty()) {
    out << "## Plots\n\nNot drawn: " << c.plot_note << "\n\n";
  }
  out << "## Configuration and provenance\n\n"
      << "- command: `" << c.command_line << "`\n"
      << "- backend " << o.backend << ", workload " << o.workload << ", data "
      << (o.data_dir.empty() ? std::string("the data cache") : o.data_dir) << ", " << o.epochs
      << " epochs, " << o.workers << " workers per node, seed " << o.seed << "\n"
      << "- baseline: `augur single`, " << base.result->value("workers_per_node", 0)
      << " Hogwild threads\n";
  if (!c.worker_cost_note.empty()) out << "- " << c.worker_cost_note << "\n";
  if (o.compute_per_sample.has_value())
    out << "- modelled compute per sample in the cluster runs: "
        << Fmt("%.3g", 1e6 * *o.compute_per_sample) << " us"
        << (o.user_compute_per_sample ? " (given)"
                                      : " (calibrated: the baseline's measured time per sample "
                                        "per core)")
        << "\n";
  out << "- pass-through flags: `" << (o.matrix_flags.empty() ? "none" : Joined(o.matrix_flags))
      << "`\n"
      << "- git commit " << base.result->value("git_commit", std::string("?")) << ", machine "
      << base.result->value("machine", std::string("?")) << "\n"
      << "- compare took " << Fmt("%.0f", c.compare_wall_seconds) << " s of wall time\n"
      << "- every run's result.json and log: `runs/NAME/`; all fields flattened: `results.csv`\n\n";
  out << "| run | wall time (s) | epochs | samples |\n|---|---:|---:|---:|\n";
  for (const CompareRecord& r : records)
    out << "| " << r.name << " | " << Num(r.result["wall_seconds"], "%.1f") << " | "
        << r.result->value("epochs", 0) << " | " << r.result->value("samples", uint64_t{0})
        << " |\n";
  return out.str();
}

Status WriteReport(const std::string& path, const ReportContext& context,
                   const std::vector<CompareRecord>& records) {
  std::ofstream out(path);
  if (!out) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  out << ReportMarkdown(context, records);
  if (!out) return Status::Error("error writing " + path);
  return Status::Ok();
}

}  // namespace augur

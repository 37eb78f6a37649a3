#include "experiments/compare/compare_plan.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace augur {

namespace {

const char* kPolicies[] = {"classic", "replicate-all", "relocate", "nups", "adaptive"};
// Flags compare sets on every run itself.
const char* kReserved[] = {"--workload", "--policy",  "--nodes",   "--epochs", "--out",
                           "--data",     "--workers", "--threads", "--seed",   "--local"};

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", s);
  return buf;
}

constexpr const char* kPython = "/usr/bin/python3";  // Debian's, with numpy and torch

// `augur launch --local N --out DIR -- python3 -m augur.workloads.W` and the common flags.
std::vector<std::string> PythonRun(const CompareOptions& o, uint32_t nodes,
                                   const std::string& out_dir) {
  std::vector<std::string> a = {"launch", "--local", std::to_string(nodes),
                                "--out",  out_dir,   "--",
                                kPython,  "-m",      "augur.workloads." + o.workload};
  for (const std::string& s : {std::string("--epochs"), std::to_string(o.epochs),
                               std::string("--seed"), std::to_string(o.seed)})
    a.push_back(s);
  if (!o.data_dir.empty()) {
    a.push_back("--data");
    a.push_back(o.data_dir);
  }
  return a;
}

void AddCommon(const CompareOptions& o, std::vector<std::string>* a) {
  for (const std::string& s :
       {std::string("--workload"), o.workload, std::string("--epochs"), std::to_string(o.epochs),
        std::string("--seed"), std::to_string(o.seed)})
    a->push_back(s);
  if (!o.data_dir.empty()) {
    a->push_back("--data");
    a->push_back(o.data_dir);
  }
}

}  // namespace

Status CompareOptions::Validate() const {
  if (backend != "sim" && backend != "tcp" && backend != "loopback")
    return Status::Error("--backend '" + backend + "' is unknown (expected sim|tcp|loopback)");
  if (IsPythonWorkload(workload) && backend != "tcp")
    return Status::Error("--workload " + workload +
                         " is a Python workload: it runs on real processes, --backend tcp");
  if (workload != "kge" && workload != "wv" && workload != "mf" && !IsPythonWorkload(workload))
    return Status::Error("--workload '" + workload +
                         "' cannot be compared (expected kge|wv|mf|ctr|gnn: they have a baseline)");
  if (policies.empty()) return Status::Error("--policies is empty");
  if (nodes.empty()) return Status::Error("--nodes is empty");
  if (epochs == 0) return Status::Error("--epochs must be at least 1");
  if (workers == 0) return Status::Error("--workers must be at least 1");
  if (out_dir.empty()) return Status::Error("--out DIR is required");
  if (worker_cost != "calibrated" && worker_cost != "baseline")
    return Status::Error("--worker-cost '" + worker_cost +
                         "' is unknown (expected calibrated|baseline)");
  for (const std::vector<std::string>* flags : {&matrix_flags, &single_flags}) {
    for (const std::string& f : *flags) {
      for (const char* r : kReserved) {
        if (f == r || f.rfind(std::string(r) + "=", 0) == 0)
          return Status::Error(std::string(r) + " is set by compare; give it to compare itself");
      }
    }
  }
  return Status::Ok();
}

bool IsPythonWorkload(const std::string& workload) {
  return workload == "ctr" || workload == "gnn";
}

uint32_t SingleThreads(const CompareOptions& o, uint32_t hardware_cores) {
  if (o.single_threads > 0) return o.single_threads;
  return std::max<uint32_t>(1, std::min(o.workers, std::max<uint32_t>(1, hardware_cores)));
}

uint32_t BaselineRuns(const CompareOptions& o, uint32_t hardware_cores) {
  if (o.baseline_runs > 0) return o.baseline_runs;
  return SingleThreads(o, hardware_cores) > 1 ? 3 : 1;
}

PlannedRun PlanSingle(const CompareOptions& o, uint32_t hardware_cores, uint32_t run) {
  PlannedRun r;
  r.name = run <= 1 ? std::string("single") : "single-r" + std::to_string(run);
  r.out_dir = o.out_dir + "/runs/" + r.name;
  if (IsPythonWorkload(o.workload)) {  // it writes DIR/result.json itself
    r.args = PythonRun(o, 1, r.out_dir);
    for (const std::string& s :
         {std::string("--baseline"), std::string("--threads"),
          std::to_string(SingleThreads(o, hardware_cores)), std::string("--out"), r.out_dir})
      r.args.push_back(s);
    r.args.insert(r.args.end(), o.single_flags.begin(), o.single_flags.end());
    return r;
  }
  r.args = {"single", "--threads", std::to_string(SingleThreads(o, hardware_cores))};
  AddCommon(o, &r.args);
  r.args.insert(r.args.end(), o.single_flags.begin(), o.single_flags.end());
  r.args.push_back("--out");
  r.args.push_back(r.out_dir);
  return r;
}

std::optional<PlannedRun> PlanSingleOneThread(const CompareOptions& o, uint32_t hardware_cores) {
  if (SingleThreads(o, hardware_cores) <= 1 || IsPythonWorkload(o.workload)) return std::nullopt;
  PlannedRun r;
  r.name = "single-t1";
  r.out_dir = o.out_dir + "/runs/" + r.name;
  // One epoch without evaluation: it times the maths, its model is not used.
  CompareOptions one_epoch = o;
  one_epoch.epochs = 1;
  r.args = {"single", "--threads", "1"};
  AddCommon(one_epoch, &r.args);
  r.args.insert(r.args.end(), o.single_flags.begin(), o.single_flags.end());
  if (std::find(o.single_flags.begin(), o.single_flags.end(), "--no-eval") == o.single_flags.end())
    r.args.push_back("--no-eval");
  r.args.push_back("--out");
  r.args.push_back(r.out_dir);
  return r;
}

PlannedRun PlanCalibration(const CompareOptions& o) {
  PlannedRun r;
  r.name = "calibrate";
  r.policy = std::find(o.policies.begin(), o.policies.end(), "adaptive") != o.policies.end()
                 ? std::string("adaptive")
                 : (o.policies.empty() ? std::string("adaptive") : o.policies.front());
  r.nodes = 2;
  r.out_dir = o.out_dir + "/runs/calibrate";
  r.args = {"calibrate",
            "--workload",
            o.workload,
            "--seed",
            std::to_string(o.seed),
            "--policy",
            r.policy,
            "--workers",
            std::to_string(o.workers)};
  if (!o.data_dir.empty()) {
    r.args.push_back("--data");
    r.args.push_back(o.data_dir);
  }
  r.args.insert(r.args.end(), o.launch_flags.begin(), o.launch_flags.end());
  r.args.insert(r.args.end(), {"--out", o.out_dir + "/costs.json", "--work-dir", r.out_dir});
  return r;
}

PlannedRun PlanPrediction(const CompareOptions& o, const PlannedRun& tcp_run) {
  PlannedRun r;
  r.name = tcp_run.name + "/predicted";
  r.policy = tcp_run.policy;
  r.nodes = tcp_run.nodes;
  r.out_dir = tcp_run.out_dir + "/predicted";
  r.args = {"sim",          "--nodes",   std::to_string(tcp_run.nodes), "--policy",
            tcp_run.policy, "--workers", std::to_string(o.workers),     "--no-progress"};
  AddCommon(o, &r.args);
  r.args.insert(r.args.end(), o.launch_flags.begin(), o.launch_flags.end());
  r.args.insert(r.args.end(), {"--costs", o.costs_file, "--compute", "hybrid", "--out", r.out_dir});
  return r;
}

std::vector<PlannedRun> PlanMatrix(const CompareOptions& o) {
  std::vector<PlannedRun> runs;
  for (const std::string& policy : o.policies) {
    for (uint32_t n : o.nodes) {
      PlannedRun r;
      r.policy = policy;
      r.nodes = n;
      r.name = o.backend + "-" + policy + "-n" + std::to_string(n);
      r.out_dir = o.out_dir + "/runs/" + r.name;
      if (IsPythonWorkload(o.workload)) {
        r.args = PythonRun(o, n, r.out_dir);
        for (const std::string& s :
             {std::string("--policy"), policy, std::string("--workers"), std::to_string(o.workers)})
          r.args.push_back(s);
        r.args.insert(r.args.end(), o.matrix_flags.begin(), o.matrix_flags.end());
        runs.push_back(std::move(r));
        continue;
      }
      std::vector<std::string> flags = {"--policy", policy, "--workers", std::to_string(o.workers)};
      AddCommon(o, &flags);
      if (o.compute_per_sample.has_value() && !o.user_compute_per_sample) {
        flags.push_back("--compute-per-sample");
        flags.push_back(FormatSeconds(*o.compute_per_sample));
      }
      flags.insert(flags.end(), o.matrix_flags.begin(), o.matrix_flags.end());
      flags.push_back("--out");
      flags.push_back(r.out_dir);
      if (o.backend == "tcp") {
        r.args = {"launch", "--local", std::to_string(n), "--"};
      } else {
        r.args = {o.backend, "--nodes", std::to_string(n)};
        if (o.backend == "sim") r.args.push_back("--no-progress");
      }
      r.args.insert(r.args.end(), flags.begin(), flags.end());
      runs.push_back(std::move(r));
    }
  }
  return runs;
}

Result<std::vector<uint32_t>> ParseNodeList(const std::string& text) {
  std::vector<uint32_t> nodes;
  for (const std::string& item : SplitCommas(text)) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v == 0 || v > 4096)
      return Status::Error("--nodes: '" + item + "' is not a node count in 1..4096");
    if (std::find(nodes.begin(), nodes.end(), v) != nodes.end())  // merged silently before
      return Status::Error("--nodes " + text + ": " + item + " is given twice");
    nodes.push_back(static_cast<uint32_t>(v));
  }
  if (nodes.empty()) return Status::Error("--nodes: no node count given");
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

Result<std::vector<std::string>> ParsePolicyList(const std::string& text) {
  std::vector<std::string> policies;
  for (const std::string& item : SplitCommas(text)) {
    if (std::find(std::begin(kPolicies), std::end(kPolicies), item) == std::end(kPolicies))
      return Status::Error("--policies: '" + item +
                           "' is unknown (expected classic|replicate-all|relocate|nups|adaptive)");
    if (std::find(policies.begin(), policies.end(), item) != policies.end())
      return Status::Error("--policies " + text + ": " + item + " is given twice");
    policies.push_back(item);
  }
  if (policies.empty()) return Status::Error("--policies: no policy given");
  return policies;
}

}  // namespace augur

// augur compare's pure parts: the run plan, the derived figures and the CSV
// (flattening, quoting, stable columns). Unit label.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/compare/baseline_check.h"
#include "experiments/compare/compare_plan.h"
#include "experiments/compare/compare_record.h"
#include "experiments/compare/report_writer.h"
#include "experiments/compare/results_csv.h"

namespace augur {
namespace {

CompareOptions Options() {
  CompareOptions o;
  o.backend = "sim";
  o.workload = "kge";
  o.policies = {"classic", "adaptive"};
  o.nodes = {1, 8};
  o.epochs = 2;
  o.workers = 4;
  o.out_dir = "/tmp/cmp";
  return o;
}

bool Contains(const std::vector<std::string>& v, const std::vector<std::string>& seq) {
  return std::search(v.begin(), v.end(), seq.begin(), seq.end()) != v.end();
}

TEST_CASE("lists parse, refuse a duplicate and name the bad item", "[compare]") {
  Result<std::vector<uint32_t>> nodes = ParseNodeList("8,1,2");
  REQUIRE(nodes.ok());
  CHECK(*nodes == std::vector<uint32_t>{1, 2, 8});
  // A duplicate was merged silently: the matrix had fewer runs than asked.
  CHECK(ParseNodeList("8,1,2,8").status().message() == "--nodes 8,1,2,8: 8 is given twice");
  Result<std::vector<uint32_t>> bad = ParseNodeList("1,x");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("'x'") != std::string::npos);
  CHECK_FALSE(ParseNodeList("0").ok());
  CHECK_FALSE(ParseNodeList("").ok());
  Result<std::vector<std::string>> p = ParsePolicyList("nups,adaptive");
  REQUIRE(p.ok());
  CHECK(*p == std::vector<std::string>{"nups", "adaptive"});
  CHECK(ParsePolicyList("nups,adaptive,nups").status().message() ==
        "--policies nups,adaptive,nups: nups is given twice");
  Result<std::vector<std::string>> q = ParsePolicyList("adaptive,lapse");
  REQUIRE_FALSE(q.ok());
  CHECK(q.status().message().find("'lapse'") != std::string::npos);
}

TEST_CASE("validation rejects flags compare sets itself", "[compare]") {
  CompareOptions o = Options();
  CHECK(o.Validate().ok());
  o.matrix_flags = {"--dim", "8", "--policy", "nups"};
  Status s = o.Validate();
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("--policy") != std::string::npos);
  o = Options();
  o.matrix_flags = {"--out=/x"};
  CHECK_FALSE(o.Validate().ok());
  o = Options();
  o.backend = "mpi";
  CHECK_FALSE(o.Validate().ok());
  o = Options();
  o.workload = "zipf";
  CHECK_FALSE(o.Validate().ok());
}

TEST_CASE("the plan runs every policy at every node count, with pass-through flags", "[compare]") {
  CompareOptions o = Options();
  o.matrix_flags = {"--platform", "star", "--dim", "8"};
  o.single_flags = {"--dim", "8"};
  o.compute_per_sample = 3e-6;
  const std::vector<PlannedRun> runs = PlanMatrix(o);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].name == "sim-classic-n1");
  CHECK(runs[3].name == "sim-adaptive-n8");
  CHECK(runs[3].out_dir == "/tmp/cmp/runs/sim-adaptive-n8");
  CHECK(runs[3].args[0] == "sim");
  CHECK(Contains(runs[3].args, {"--nodes", "8"}));
  CHECK(Contains(runs[3].args, {"--policy", "adaptive"}));
  CHECK(Contains(runs[3].args, {"--platform", "star", "--dim", "8"}));
  CHECK(Contains(runs[3].args, {"--compute-per-sample", "3e-06"}));
  const PlannedRun single = PlanSingle(o, 2);
  CHECK(single.args[0] == "single");
  CHECK(Contains(single.args, {"--threads", "2"}));  // min(workers 4, 2 cores)
  CHECK(Contains(single.args, {"--dim", "8"}));
  CHECK_FALSE(Contains(single.args, {"--platform"}));
  o.backend = "tcp";
  o.user_compute_per_sample = true;  // given by the user: passed through, not added
  const std::vector<PlannedRun> tcp = PlanMatrix(o);
  CHECK(Contains(tcp[1].args, {"launch", "--local", "8", "--"}));
  CHECK_FALSE(Contains(tcp[1].args, {"--compute-per-sample"}));
}

TEST_CASE("python workloads run as programs under augur launch, on tcp only", "[compare]") {
  CompareOptions o = Options();
  o.workload = "ctr";
  Status s = o.Validate();  // backend sim
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("--backend tcp") != std::string::npos);
  o.backend = "tcp";
  REQUIRE(o.Validate().ok());
  o.data_dir = "/d";
  o.matrix_flags = o.single_flags = {"--max-train-rows", "100"};
  const std::vector<PlannedRun> runs = PlanMatrix(o);
  REQUIRE(runs.size() == 4);
  CHECK(runs[3].name == "tcp-adaptive-n8");
  CHECK(Contains(runs[3].args, {"launch", "--local", "8", "--out", "/tmp/cmp/runs/tcp-adaptive-n8",
                                "--", "/usr/bin/python3", "-m", "augur.workloads.ctr"}));
  CHECK(Contains(runs[3].args, {"--policy", "adaptive", "--workers", "4"}));
  CHECK(Contains(runs[3].args, {"--data", "/d"}));
  CHECK(Contains(runs[3].args, {"--max-train-rows", "100"}));
  CHECK_FALSE(Contains(runs[3].args, {"--workload"}));
  const PlannedRun single = PlanSingle(o, 2);
  CHECK(Contains(single.args, {"launch", "--local", "1"}));
  CHECK(Contains(single.args, {"--baseline", "--threads", "2", "--out", "/tmp/cmp/runs/single"}));
  CHECK(Contains(single.args, {"--max-train-rows", "100"}));
  CHECK(HeadlineQuality("ctr").name == "quality.test_auc");
  CHECK(HeadlineQuality("gnn").name == "quality.test_accuracy");
  CHECK(HeadlineQuality("gnn").higher_is_better);
}

TEST_CASE("calibration and predictions run the job's own launch flags", "[compare]") {
  CompareOptions o = Options();
  o.backend = "tcp";
  o.data_dir = "/data/kg";
  o.launch_flags = {"--dim", "8", "--sampling", "local"};
  PlannedRun cal = PlanCalibration(o);
  CHECK(cal.args[0] == "calibrate");
  CHECK(Contains(cal.args, {"--workload", "kge"}));
  CHECK(Contains(cal.args, {"--policy", "adaptive"}));  // compared, so it is the one calibrated
  CHECK(Contains(cal.args, {"--workers", "4"}));
  CHECK(Contains(cal.args, {"--data", "/data/kg"}));
  CHECK(Contains(cal.args, {"--dim", "8", "--sampling", "local"}));
  CHECK(Contains(cal.args, {"--out", "/tmp/cmp/costs.json"}));
  CHECK_FALSE(Contains(cal.args, {"--epochs"}));  // calibrate sets its runs' epochs
  o.policies = {"nups", "classic"};
  CHECK(Contains(PlanCalibration(o).args, {"--policy", "nups"}));
  o.costs_file = "/tmp/cmp/costs.json";
  const PlannedRun run = PlanMatrix(o)[1];
  const PlannedRun p = PlanPrediction(o, run);
  CHECK(p.args[0] == "sim");
  CHECK(Contains(p.args, {"--nodes", "8"}));
  CHECK(Contains(p.args, {"--policy", "nups"}));
  CHECK(Contains(p.args, {"--epochs", "2"}));
  CHECK(Contains(p.args, {"--costs", "/tmp/cmp/costs.json", "--compute", "hybrid"}));
  CHECK(p.out_dir == run.out_dir + "/predicted");
  o.worker_cost = "modelled";
  CHECK_FALSE(o.Validate().ok());
}

CompareRecord Record(const std::string& policy, uint32_t nodes, double epoch, double mrr) {
  CompareRecord r;
  r.name = policy + std::to_string(nodes);
  r.policy = policy;
  r.nodes = nodes;
  r.baseline = policy == "single";
  r.result = {{"epoch_seconds", {epoch, epoch}},
              {"epochs", 2},
              {"samples", 2000},
              {"workers_per_node", policy == "single" ? 2 : 4},
              {"bytes_sent_per_node", {100, 300}},
              {"quality", {{"test_mrr", mrr}}}};
  return r;
}

TEST_CASE("derived figures: a reported standard error of the quality is carried", "[compare]") {
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.5),
                                        Record("adaptive", 8, 1.0, 0.45)};
  records[1].result["quality"]["test_mrr_stderr"] = 0.004;
  DeriveFigures("kge", 2, &records);
  CHECK(records[1].derived["quality_stderr"].get<double>() == Approx(0.004));
  CHECK(records[0].derived["quality_stderr"].is_null());
}

TEST_CASE("derived figures: speed-up over a per-core baseline and over one node", "[compare]") {
  // Baseline: 2 threads on 2 cores, 10 s per epoch of 1000 samples -> 20 ms per sample
  // per core; one 4-worker node's reference epoch is 1000 * 0.02 / 4 = 5 s.
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.5),
                                        Record("adaptive", 1, 6.0, 0.5),
                                        Record("adaptive", 8, 1.0, 0.49)};
  DeriveFigures("kge", 2, &records);
  CHECK(records[0].derived["speedup_over_single"].get<double>() == Approx(1.0));
  CHECK(records[1].derived["reference_epoch_seconds"].get<double>() == Approx(5.0));
  CHECK(records[1].derived["speedup_over_single"].get<double>() == Approx(5.0 / 6.0));
  CHECK(records[2].derived["speedup_over_single"].get<double>() == Approx(5.0));
  CHECK(records[2].derived["speedup_over_one_node"].get<double>() == Approx(6.0));
  CHECK(records[2].derived["quality_ratio_to_single"].get<double>() == Approx(0.98));
  CHECK(records[2].derived["quality_stderr"].is_null());  // none reported
  CHECK(records[2].derived["bytes_sent_per_node_mean"].get<double>() == Approx(200));
  CHECK(records[2].derived["bytes_sent_per_node_max"].get<double>() == Approx(300));
  CHECK(records[0].derived["speedup_over_one_node"].is_null());
  // With the baseline's CPU time recorded (30 s per epoch over its threads), that is the
  // cost per sample: 30 ms, so a 4-worker node's reference epoch is 7.5 s.
  records[0].result["epoch_cpu_seconds"] = {30.0, 30.0};
  CHECK(BaselineSecondsPerSample(records[0].result, 2) == Approx(0.03));
  DeriveFigures("kge", 2, &records);
  CHECK(records[2].derived["speedup_over_single"].get<double>() == Approx(7.5));
  records[0].result->erase("epoch_cpu_seconds");
  DeriveFigures("kge", 2, &records);
  CHECK(records[2].derived["reference_cores"].get<double>() == Approx(4.0));

  ReportContext context{Options(), "augur compare ...", 2, 1.0, {}, "", ""};
  context.options.policies = {"adaptive"};
  const std::string md = ReportMarkdown(context, records);
  CHECK(md.find("| adaptive | 0.83 (1.00) | 5.00 (6.00) |") != std::string::npos);
  CHECK(md.find("speed-up 5.00x over one node of 4 cores") != std::string::npos);
  CHECK(md.find("the compute of a cluster node (4 cores") != std::string::npos);
  CHECK(md.find("missed by 1.00x") != std::string::npos);  // goal 6x, reached 5x
  CHECK(md.find("2.0% worse; goal within 2%: met") != std::string::npos);
  CHECK(md.find("--sampling") == std::string::npos);  // no sampling scheme recorded
  // A speed-up bought with local sampling says so next to the verdict.
  records[2].result["config"] = {{"workload", "kge"}, {"sampling", {{"scheme", "local"}}}};
  const std::string local = ReportMarkdown(context, records);
  CHECK(local.find("`--sampling local`: NOT the application's distribution") != std::string::npos);
  // A diverged run shows as diverged, never with a quality number.
  records[2].result["diverged"] = true;
  records[2].result["divergence"] = "training diverged in epoch 1: loss nan";
  DeriveFigures("kge", 2, &records);
  CHECK(records[2].derived["quality"] == "diverged");
  CHECK(records[2].derived["quality_ratio_to_single"].is_null());
  const std::string md2 = ReportMarkdown(context, records);
  CHECK(md2.find("**diverged** (training diverged in epoch 1: loss nan); goal within 2%: missed") !=
        std::string::npos);
  CHECK(md2.find("0.49") == std::string::npos);
  const std::vector<std::vector<std::string>> table = ResultsTable(records);
  const auto col = std::find(table[0].begin(), table[0].end(), "quality") - table[0].begin();
  CHECK(table[3][col] == "diverged");
}

TEST_CASE("derived figures: a baseline run several times is judged by its mean and range",
          "[compare]") {
  // Three baseline runs of the same seed (Hogwild: each differs): MRR 0.46, 0.50, 0.54 at
  // 20, 10 and 40 ms per sample per core (10, 5 and 20 s per epoch on 2 threads).
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.46),
                                        Record("adaptive", 8, 1.0, 0.49)};
  records[0].result["quality"]["test_mrr_stderr"] = 0.004;
  records[0].baseline_repeats.push_back(Record("single", 1, 5.0, 0.50).result);
  records[0].baseline_repeats.push_back(Record("single", 1, 20.0, 0.54).result);
  DeriveFigures("kge", 2, &records);
  const nlohmann::json& b = records[0].derived;
  CHECK(b["quality"].get<double>() == Approx(0.50));
  CHECK(b["quality_min"].get<double>() == Approx(0.46));
  CHECK(b["quality_max"].get<double>() == Approx(0.54));
  CHECK(b["quality_runs"].size() == 3);
  CHECK(b["quality_stderr"].get<double>() == Approx(0.04 / std::sqrt(3.0)));  // sd 0.04
  CHECK(b["seconds_per_sample"].get<double>() == Approx(0.02));               // the median
  CHECK(records[1].derived["quality_ratio_to_single"].get<double>() == Approx(0.98));
  CHECK(records[1].derived["speedup_over_single"].get<double>() == Approx(5.0));

  ReportContext context{Options(), "augur compare ...", 2, 1.0, {}, "", ""};
  context.options.policies = {"adaptive"};
  const std::string md = ReportMarkdown(context, records);
  CHECK(md.find("vs baseline 0.5 (mean of 3 runs, 0.46-0.54), 2.0% worse; goal within 2%: met "
                "(inside the range of the baseline's own runs)") != std::string::npos);
  CHECK(md.find("the median of its 3 runs") != std::string::npos);
  // One run: no range, the first run's quality and its own standard error.
  records[0].baseline_repeats.clear();
  DeriveFigures("kge", 2, &records);
  CHECK(records[0].derived["quality"].get<double>() == Approx(0.46));
  CHECK(records[0].derived["quality_stderr"].get<double>() == Approx(0.004));
  CHECK(records[0].derived["quality_min"].is_null());
  CHECK(ReportMarkdown(context, records).find("(mean of ") == std::string::npos);
  // A diverged repeat leaves the baseline without a quality to compare against.
  records[0].baseline_repeats.push_back(Record("single", 1, 5.0, 0.50).result);
  records[0].baseline_repeats.back()["diverged"] = true;
  DeriveFigures("kge", 2, &records);
  CHECK(records[1].derived["quality_ratio_to_single"].is_null());
}

TEST_CASE("a baseline not clearly better than its untrained rows is called out beside the verdict",
          "[compare]") {
  // wv: held-out loss, lower is better; the untrained model (output rows at
  // zero) scores 6 ln 2 = 4.159 with 5 negatives.
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0),
                                        Record("adaptive", 8, 1.0, 0)};
  records[0].result["quality"] = {{"heldout_loss", 4.7}, {"untrained_heldout_loss", 4.159}};
  records[1].result["quality"] = {{"heldout_loss", 2.2}, {"untrained_heldout_loss", 4.159}};
  DeriveFigures("wv", 2, &records);
  ReportContext context{Options(), "augur compare ...", 2, 1.0, {}, "", ""};
  context.options.workload = "wv";
  context.options.policies = {"adaptive"};
  context.options.epochs = 1;
  std::string md = ReportMarkdown(context, records);
  CHECK(md.find("no worse than the baseline; goal within 2%: met") != std::string::npos);
  CHECK(md.find("**the baseline's own model is not clearly better than its untrained rows** "
                "(quality.heldout_loss 4.7 against 4.159 after 1 epoch)") != std::string::npos);
  CHECK(md.find("The untrained model (its initial rows) scores 4.159.") != std::string::npos);
  // Better than untrained, but within the standard error of its runs' mean
  // (4.05, 3.55, 4.5: mean 4.033, standard error 0.28): still not clearly.
  records[0].result["quality"]["heldout_loss"] = 4.05;
  records[0].baseline_repeats.push_back(records[0].result);
  records[0].baseline_repeats.back()["quality"]["heldout_loss"] = 3.55;
  records[0].baseline_repeats.push_back(records[0].result);
  records[0].baseline_repeats.back()["quality"]["heldout_loss"] = 4.5;
  DeriveFigures("wv", 2, &records);
  md = ReportMarkdown(context, records);
  CHECK(md.find("not clearly better than its untrained rows** (quality.heldout_loss 4.033 ± "
                "0.27 against 4.159") != std::string::npos);
  // A baseline that learned: the table still names the reference, no warning.
  records[0].baseline_repeats.clear();
  records[0].result["quality"]["heldout_loss"] = 2.8;
  DeriveFigures("wv", 2, &records);
  md = ReportMarkdown(context, records);
  CHECK(md.find("clearly better than its untrained rows") == std::string::npos);
  CHECK(md.find("scores 4.159") != std::string::npos);
  // A run that recorded no untrained quality (kge): neither.
  records[0].result["quality"].erase("untrained_heldout_loss");
  md = ReportMarkdown(context, records);
  CHECK(md.find("untrained") == std::string::npos);
}

TEST_CASE("the baseline runs three times with several threads, once with one", "[compare]") {
  CompareOptions o = Options();
  CHECK(BaselineRuns(o, 2) == 3);  // min(4 workers, 2 cores) threads
  CHECK(BaselineRuns(o, 1) == 1);
  o.single_threads = 1;
  CHECK(BaselineRuns(o, 2) == 1);
  o.baseline_runs = 5;
  CHECK(BaselineRuns(o, 2) == 5);
  const PlannedRun second = PlanSingle(o, 2, 2);
  CHECK(second.name == "single-r2");
  CHECK(second.out_dir == "/tmp/cmp/runs/single-r2");
  CHECK(Contains(second.args, {"--out", "/tmp/cmp/runs/single-r2"}));
  CHECK(PlanSingle(o, 2).name == "single");
}

TEST_CASE("derived figures: the speed reference takes the faster of threads and one thread",
          "[compare]") {
  // Baseline: 2 threads, 10 s per epoch of 1000 samples: 20 ms per sample per core.
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.5),
                                        Record("adaptive", 8, 1.0, 0.49)};
  CompareRecord one = Record("single", 1, 15.0, 0.1);
  one.result["workers_per_node"] = 1;
  // One thread at 15 ms per sample: below the threads' 20 ms, so it is the reference.
  records[0].baseline_one_thread = one.result;
  DeriveFigures("kge", 2, &records);
  const nlohmann::json& b = records[0].derived;
  CHECK(b["seconds_per_sample"].get<double>() == Approx(0.015));
  CHECK(b["seconds_per_sample_threads"].get<double>() == Approx(0.02));
  CHECK(b["seconds_per_sample_one_thread"].get<double>() == Approx(0.015));
  CHECK(b["speed_reference"] == "one thread");
  CHECK(records[1].derived["speedup_over_single"].get<double>() == Approx(3.75));
  CHECK(b["quality"].get<double>() == Approx(0.5));  // the timing run's quality is not used
  ReportContext context{Options(), "augur compare ...", 2, 1.0, {}, "", ""};
  context.options.policies = {"adaptive"};
  CHECK(ReportMarkdown(context, records)
            .find("(1.5e+04 us, its one-thread timing run's, below its 2e+04 us per core on 2 "
                  "threads") != std::string::npos);
  // One thread at 30 ms: the threads stay the reference.
  (**records[0].baseline_one_thread)["epoch_seconds"] = {30.0, 30.0};
  DeriveFigures("kge", 2, &records);
  CHECK(records[0].derived["seconds_per_sample"].get<double>() == Approx(0.02));
  CHECK(records[0].derived["speed_reference"] == "threads");
  CHECK(records[1].derived["speedup_over_single"].get<double>() == Approx(5.0));
  CHECK(ReportMarkdown(context, records).find("its one-thread timing run took 3e+04 us") !=
        std::string::npos);
  // No timing run: no one-thread figure.
  records[0].baseline_one_thread.reset();
  DeriveFigures("kge", 2, &records);
  CHECK(records[0].derived["seconds_per_sample_one_thread"].is_null());
}

TEST_CASE("a baseline of several threads gets a one-thread timing run", "[compare]") {
  CompareOptions o = Options();
  o.single_flags = {"--dim", "32"};
  const std::optional<PlannedRun> one = PlanSingleOneThread(o, 2);
  REQUIRE(one.has_value());
  CHECK(one->name == "single-t1");
  CHECK(Contains(one->args, {"single", "--threads", "1"}));
  CHECK(Contains(one->args, {"--epochs", "1"}));  // a timing run: one epoch, no evaluation
  CHECK(std::count(one->args.begin(), one->args.end(), "--no-eval") == 1);
  o.single_flags.push_back("--no-eval");  // given by the user: not twice
  const std::vector<std::string> given = PlanSingleOneThread(o, 2)->args;
  CHECK(std::count(given.begin(), given.end(), "--no-eval") == 1);
  CHECK(Contains(one->args, {"--dim", "32"}));
  CHECK(Contains(one->args, {"--out", "/tmp/cmp/runs/single-t1"}));
  CHECK_FALSE(PlanSingleOneThread(o, 1).has_value());  // one core: the baseline has one thread
  o.workload = "ctr";
  CHECK_FALSE(PlanSingleOneThread(o, 2).has_value());  // Python workloads time themselves
}

TEST_CASE("derived figures: a simulated host's cores bound the reference node", "[compare]") {
  // 20 ms per sample per core (as above); 1000 samples per epoch.
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.5),
                                        Record("adaptive", 8, 1.0, 0.49)};
  auto sim = [&](double host_cores, double speed) {
    records[1].result["config"] = {
        {"sim", {{"host_cores", host_cores}, {"host_speed_flops", speed}}}};
    DeriveFigures("kge", 2, &records);
    return records[1].derived["speedup_over_single"].get<double>();
  };
  // Hosts modelled on a 2-core machine run 4 workers on 2 cores: the single
  // node of the same hardware has 2 cores (reference epoch 10 s), not 4.
  CHECK(sim(2, 1e9) == Approx(10.0));
  CHECK(records[1].derived["reference_cores"].get<double>() == Approx(2.0));
  // The simulator's default (0: workers + 1) and larger hosts: one core per worker.
  CHECK(sim(0, 1e9) == Approx(5.0));
  CHECK(sim(16, 1e9) == Approx(5.0));
  // A host at half the nominal speed computes as half its cores.
  CHECK(sim(2, 0.5e9) == Approx(20.0));
  CHECK(records[1].derived["reference_cores"].get<double>() == Approx(1.0));
  // Not a simulated run: the workers, as before.
  records[1].result->erase("config");
  DeriveFigures("kge", 2, &records);
  CHECK(records[1].derived["reference_cores"].get<double>() == Approx(4.0));
}

TEST_CASE("csv: flattened fields, joined arrays, quoting, stable columns", "[compare]") {
  std::map<std::string, std::string> flat;
  FlattenJson({{"a", {{"b", 1}, {"c", "x"}}}, {"e", {0.5, 0.25}}, {"m", {{{"k", 1}}}}}, "", &flat);
  CHECK(flat["a.b"] == "1");
  CHECK(flat["a.c"] == "x");
  CHECK(flat["e"] == "0.5;0.25");
  CHECK(flat["m"] == "[{\"k\":1}]");
  CHECK(CsvCell("plain") == "plain");
  CHECK(CsvCell("a,b") == "\"a,b\"");
  CHECK(CsvCell("say \"hi\"") == "\"say \"\"hi\"\"\"");

  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.5),
                                        Record("adaptive", 8, 1.0, 0.49)};
  records[1].result["zeta"] = 1;  // a field only one run has
  DeriveFigures("kge", 2, &records);
  const auto table = ResultsTable(records);
  REQUIRE(table.size() == 3);
  const auto& header = table[0];
  CHECK(header[0] == "run");
  CHECK(header[3] == "policy");
  const auto zeta = std::find(header.begin(), header.end(), "zeta") - header.begin();
  CHECK(table[1][zeta].empty());
  CHECK(table[2][zeta] == "1");
  const auto q = std::find(header.begin(), header.end(), "quality.test_mrr");
  REQUIRE(q != header.end());
  CHECK(std::is_sorted(std::find(header.begin(), header.end(), "machine") + 1, header.end()));
  CHECK(table[1][3] == "single");
}

// --- a --baseline file -------------------------------------------------------

// A result.json of `augur single --workload mf --data d --epochs 2`, trimmed.
nlohmann::json SingleMfRun() {
  return {
      {"backend", "single"},
      {"workload", "mf"},
      {"epochs", 2},
      {"workers_per_node", 1},
      {"samples", 2000},
      {"seed", 1},
      {"epoch_seconds", {0.5, 0.5}},
      {"epoch_cpu_seconds", {0.5, 0.5}},
      {"diverged", false},
      {"quality", {{"test_rmse", 0.9}}},
      {"config",
       {{"data_dir", "d"},
        {"seed", 1},
        {"mf", {{"rank", 32}, {"learning_rate", 0.02f}, {"compute_seconds_per_sample", 1e-7}}}}}};
}

TEST_CASE("a --baseline file of another shape or with bad values is one line naming the field",
          "[compare]") {
  CHECK(CheckBaselineFields(SingleMfRun(), "b.json", "mf").ok());
  CHECK_THAT(CheckBaselineFields(nlohmann::json::array({1, 2, 3}), "b.json", "mf").message(),
             Catch::Equals("--baseline b.json: not a result.json (a JSON object), but a array"));
  CHECK_THAT(CheckBaselineFields(SingleMfRun(), "b.json", "kge").message(),
             Catch::Contains("is not an `augur single` run of kge"));
  struct Case {
    const char* field;
    nlohmann::json value;
    const char* what;
  };
  const Case cases[] = {
      {"samples", "many", "field 'samples' must be a finite number >= 0, got \"many\""},
      {"epochs", -1, "field 'epochs' must be a positive integer"},
      {"workers_per_node", "two", "field 'workers_per_node' must be a positive integer"},
      {"epoch_seconds", {-1.0}, "field 'epoch_seconds' must hold finite seconds >= 0, got -1"},
      {"epoch_seconds", nlohmann::json::array(), "field 'epoch_seconds' must be a non-empty"},
      {"epoch_cpu_seconds", {"x"}, "field 'epoch_cpu_seconds' must hold finite seconds"},
      {"diverged", "no", "field 'diverged' must be true or false"},
      {"quality", {{"test_rmse", -5}}, "field 'quality.test_rmse' must be a finite number >= 0"},
      {"quality", {{"test_rmse", "abc"}}, "field 'quality.test_rmse' must be a finite number"},
      {"config", 3, "field 'config' must be an object"},
  };
  for (const Case& c : cases) {
    nlohmann::json run = SingleMfRun();
    run[c.field] = c.value;
    INFO(c.field << " = " << c.value.dump());
    CHECK_THAT(CheckBaselineFields(run, "b.json", "mf").message(),
               Catch::StartsWith("--baseline b.json: ") && Catch::Contains(c.what));
  }
  nlohmann::json unmeasured = SingleMfRun();  // --no-eval: no quality is fine
  unmeasured.erase("quality");
  CHECK(CheckBaselineFields(unmeasured, "b.json", "mf").ok());
}

TEST_CASE("a --baseline file must have trained the same data, seed, options and epochs",
          "[compare]") {
  nlohmann::json want = SingleMfRun()["config"];
  want["mf"]["compute_seconds_per_sample"] = 5e-8;  // a single run does not use it
  const BaselineExpectation e{"mf", 2, &want};
  CHECK(CheckBaselineSetup(SingleMfRun(), "b.json", e, false).ok());
  nlohmann::json other = SingleMfRun();
  other["config"]["data_dir"] = "elsewhere";
  CHECK_THAT(CheckBaselineSetup(other, "b.json", e, false).message(),
             Catch::Contains("ran with data \"elsewhere\", this comparison with \"d\" (--data)"));
  other = SingleMfRun();
  other["config"]["data_dir"] = "./d/";  // the same directory, spelt otherwise
  CHECK(CheckBaselineSetup(other, "b.json", e, false).ok());
  other = SingleMfRun();
  other["config"]["mf"]["learning_rate"] = 0.5;
  CHECK_THAT(CheckBaselineSetup(other, "b.json", e, false).message(),
             Catch::Contains("ran with mf.learning_rate 0.5") && Catch::Contains("(--lr)"));
  other = SingleMfRun();
  other["config"]["mf"]["rank"] = 8;
  CHECK_THAT(CheckBaselineSetup(other, "b.json", e, false).message(), Catch::Contains("(--dim)"));
  other = SingleMfRun();
  other["config"]["seed"] = 7;
  CHECK_THAT(CheckBaselineSetup(other, "b.json", e, false).message(), Catch::Contains("(--seed)"));
  other = SingleMfRun();
  other["epochs"] = 1;
  CHECK_THAT(CheckBaselineSetup(other, "b.json", e, false).message(),
             Catch::Contains("is not an `augur single` run of mf for 2 epochs"));
  CHECK(CheckBaselineSetup(other, "b.json", e, /*timing=*/true).ok());  // its epochs do not matter
}

TEST_CASE("a diverged baseline is told apart from a diverged run", "[compare]") {
  CompareRecord base;
  base.baseline = true;
  base.result = SingleMfRun();
  CHECK_FALSE(BaselineDiverged(base));
  nlohmann::json diverged = SingleMfRun();
  diverged["diverged"] = true;
  base.baseline_repeats.push_back(diverged);
  CHECK(BaselineDiverged(base));

  CompareRecord run;
  run.result = SingleMfRun();
  CompareRecord good_base = base;
  good_base.baseline_repeats.clear();
  CHECK(ConvergenceOf({good_base, run}, "r.md").ok());
  run.result["diverged"] = true;
  CHECK(ConvergenceOf({good_base, run}, "r.md").ok());  // a policy that diverges is a finding
  base.baseline_repeats.back()["divergence"] = "training diverged in epoch 2: loss inf";
  CHECK(ConvergenceOf({base, run}, "r.md").message() ==
        "the baseline diverged (single-r2: training diverged in epoch 2: loss inf), so it is no "
        "reference: no speed-up or quality verdict against it in r.md; make it converge (e.g. a "
        "lower --lr) and compare again");
  // Its one-thread timing run diverging makes it no reference either.
  CompareRecord timing = good_base;
  timing.baseline_one_thread = diverged;
  CHECK(BaselineDiverged(timing));
  CHECK_THAT(ConvergenceOf({timing, run}, "r.md").message(),
             Catch::StartsWith("the baseline diverged (single-t1: training diverged)"));
  base.result["diverged"] = true;
  CHECK_THAT(ConvergenceOf({base, run}, "r.md").message(),
             Catch::StartsWith("nothing converged: every run, the baseline included, diverged "
                               "(r.md)"));
}

TEST_CASE("a diverged baseline gives no speed-up, quality ratio or verdict", "[compare]") {
  // The converged case of "speed-up over a per-core baseline" (5x, quality
  // 0.98 of the baseline's), with the baseline's second run diverged.
  std::vector<CompareRecord> records = {Record("single", 1, 10.0, 0.5),
                                        Record("adaptive", 1, 6.0, 0.5),
                                        Record("adaptive", 8, 1.0, 0.49)};
  records[0].baseline_repeats.push_back(Record("single", 1, 10.0, 0.5).result);
  records[0].baseline_repeats.back()["diverged"] = true;
  records[0].baseline_repeats.back()["divergence"] =
      "training diverged in epoch 2: loss inf; last good loss 0.3 (epoch 1)";
  records[0].baseline_repeats.back()->erase("quality");
  DeriveFigures("kge", 2, &records);
  for (const CompareRecord& r : records) {
    INFO(r.name);
    CHECK(r.derived["baseline_diverged"] == true);
    CHECK(r.derived["speedup_over_single"].is_null());
    CHECK(r.derived["reference_epoch_seconds"].is_null());
    CHECK(r.derived["quality_ratio_to_single"].is_null());
  }
  // The baseline's own row is diverged although its first run was not.
  CHECK(records[0].derived["diverged"] == true);
  CHECK(records[0].derived["quality"] == "diverged");
  CHECK(records[0].derived["diverged_runs"] ==
        nlohmann::json::array({"single-r2: training diverged in epoch 2: loss inf; last good "
                               "loss 0.3 (epoch 1)"}));
  // What does not depend on the baseline stays: over the same policy on 1 node.
  CHECK(records[2].derived["speedup_over_one_node"].get<double>() == Approx(6.0));
  CHECK(records[2].derived["quality"].get<double>() == Approx(0.49));

  ReportContext context{Options(), "augur compare ...", 2, 1.0, {}, "", ""};
  context.options.policies = {"adaptive"};
  const std::string md = ReportMarkdown(context, records);
  CHECK(md.find("## The baseline diverged") != std::string::npos);
  CHECK(md.find("- single-r2: training diverged in epoch 2: loss inf") != std::string::npos);
  CHECK(md.find("**no verdict: the baseline diverged**") != std::string::npos);
  CHECK(md.find("| adaptive | – (1.00) | – (6.00) |") != std::string::npos);
  CHECK(md.find("None: the baseline diverged") != std::string::npos);
  CHECK(md.find("| single-node baseline (2 threads) | diverged (above) |") != std::string::npos);
  // No verdict, no speed-up and no ratio against it anywhere.
  CHECK(md.find("speed-up 5.00x") == std::string::npos);
  CHECK(md.find("5.00 (") == std::string::npos);
  CHECK(md.find("goal within 2%") == std::string::npos);
  CHECK(md.find("(0.980)") == std::string::npos);
  const std::vector<std::vector<std::string>> table = ResultsTable(records);
  const auto col = [&](const char* name) {
    return std::find(table[0].begin(), table[0].end(), name) - table[0].begin();
  };
  CHECK(table[3][col("speedup_over_single")].empty());
  CHECK(table[1][col("baseline_diverged")] == "true");
  // Converged again: the figures come back (derived afresh).
  records[0].baseline_repeats.clear();
  DeriveFigures("kge", 2, &records);
  CHECK(records[2].derived["speedup_over_single"].get<double>() == Approx(5.0));
  CHECK(records[2].derived["baseline_diverged"] == false);
  CHECK(ReportMarkdown(context, records).find("The baseline diverged") == std::string::npos);
}

TEST_CASE("a diverged --baseline file is refused, naming the file and its divergence",
          "[compare]") {
  nlohmann::json run = SingleMfRun();
  run["diverged"] = true;
  run["divergence"] = "training diverged in epoch 1: loss nan";
  CHECK(CheckBaselineFields(run, "b.json", "mf").message() ==
        "--baseline b.json: that run diverged (training diverged in epoch 1: loss nan), so it is "
        "no reference; give runs that converged");
}

}  // namespace
}  // namespace augur

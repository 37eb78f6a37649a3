// The real workloads end to end at tiny scale: WordNet counts on the real
// package, quality improves with training, and the loopback PS runs reach
// the quality of the single-node baseline. Label `workloads` (slower).
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "experiments/drivers/loopback_driver.h"
#include "experiments/jobs/job.h"
#include "experiments/jobs/quality_floor.h"
#include "experiments/kge/kg_dataset.h"
#include "experiments/single/hogwild_epochs.h"
#include "experiments/single/single_runner.h"
#include "experiments/wv/text_corpus.h"
#include "experiments/wv/wv_task.h"
#include "tests/experiments/tiny_data.h"

namespace augur {
namespace {

using testing::TempDir;

RunConfig TinyConfig(const std::string& workload, const std::string& data_dir, uint32_t epochs) {
  RunConfig c;
  c.workload = workload;
  c.data_dir = data_dir;
  c.epochs = epochs;
  c.seed = 3;
  c.policy = "classic";  // the PS runs below compare the static partitioning to the baseline
  c.kge.dim = 16;
  c.kge.batch_size = 32;
  c.kge.eval_triples = 0;
  c.wv.dim = 16;
  c.wv.min_count = 1;
  c.wv.subsample = 0;
  c.wv.batch_size = 8;
  c.mf.rank = 8;
  c.mf.batch_size = 64;
  return c;
}

RunResult Single(RunConfig c, uint32_t threads) {
  c.backend = "single";
  c.nodes = 1;
  c.workers = threads;
  REQUIRE(c.Validate().ok());
  Result<RunResult> r = RunSingle(c);
  INFO(r.status().message());
  REQUIRE(r.ok());
  return *r;
}

RunResult Loopback(RunConfig c, uint32_t nodes, uint32_t workers, const std::string& partition) {
  c.nodes = nodes;
  c.workers = workers;
  c.partition = partition;
  REQUIRE(c.Validate().ok());
  Result<std::unique_ptr<Job>> job = MakeJob(c);
  INFO(job.status().message());
  REQUIRE(job.ok());
  Result<RunResult> r = RunOnLoopback(c, **job);
  INFO(r.status().message());
  REQUIRE(r.ok());
  return *r;
}

double Quality(const RunResult& r, const char* name) {
  return r.extra->at("quality").at(name).get<double>();
}

TEST_CASE("WordNet 3.0 from wordnet-base has the expected counts", "[workloads]") {
  INFO("needs Debian package wordnet-base (scripts/lib/deps.sh installs it)");
  REQUIRE(std::filesystem::exists("/usr/share/wordnet/data.noun"));
  Result<KgDataset> d = BuildWordNetKg("/usr/share/wordnet", 5000, 5000, 1);
  REQUIRE(d.ok());
  CHECK(d->num_entities() == 117659);
  CHECK(d->num_relations() == 26);
  CHECK(d->meta["pointer_records"].get<uint64_t>() == 377592);
  CHECK(d->meta["edges"].get<uint64_t>() == 364552);  // unique (head, relation, tail)
  CHECK(d->train.size() + d->valid.size() + d->test.size() == 364552);
  CHECK(d->valid.size() == 5000);
  CHECK(d->test.size() == 5000);
}

TEST_CASE("WordNet gloss corpus builds and reads back", "[workloads]") {
  INFO("needs Debian package wordnet-base (scripts/lib/deps.sh installs it)");
  REQUIRE(std::filesystem::exists("/usr/share/wordnet/data.noun"));
  TempDir dir("wn-text");
  Result<uint64_t> n = BuildWordNetTextCorpus("/usr/share/wordnet", dir.path());
  REQUIRE(n.ok());
  CHECK(*n > 150000);
  Result<TextCorpus> c = ReadTextCorpus(dir.path(), 5);
  REQUIRE(c.ok());
  CHECK(c->words[0] == "the");
  CHECK(c->vocab_size() > 10000);
}

TEST_CASE("kge: loopback PS reaches the single-node quality", "[workloads]") {
  TempDir dir("kge-run");
  REQUIRE(WriteKgDataset(testing::TinyKg(), dir.path()).ok());
  const RunConfig c = TinyConfig("kge", dir.path(), 40);
  const RunResult single = Single(c, 1);
  const RunResult ps = Loopback(c, 2, 2, "graph");
  const double ms = Quality(single, "test_mrr"), mp = Quality(ps, "test_mrr");
  INFO("single MRR " << ms << ", loopback MRR " << mp);
  CHECK(ms > 0.3);  // random ranking of 120 entities gives ~0.04
  CHECK(mp > 0.3);
  CHECK(std::abs(ms - mp) < 0.3 * std::max(ms, mp));
  const auto& losses = ps.extra->at("train_loss_per_epoch");
  CHECK(losses.back().get<double>() < losses.front().get<double>());
  CHECK(ps.samples == 40 * testing::TinyKg().train.size());
  CHECK(ps.totals[NodeCounter::kIntents] > 0);
}

TEST_CASE("wv: loss decreases and the loopback PS matches the single node", "[workloads]") {
  TempDir dir("wv-run");
  testing::WriteTinyCorpus(dir);
  const RunConfig c = TinyConfig("wv", dir.path(), 3);
  // The untrained model's held-out loss.
  Result<std::unique_ptr<WvTask>> task = WvTask::Load(c);
  REQUIRE(task.ok());
  const QualityFloor floor = (*task)->Untrained();
  REQUIRE(floor.field == "heldout_loss");
  const double l0 = floor.untrained.at("heldout_loss").get<double>();
  // Output rows start at zero: every term is log 2, the positive and each negative.
  CHECK(std::abs(l0 - (1 + c.wv.negatives) * std::log(2.0)) < 1e-4);
  const RunResult single = Single(c, 1);
  const RunResult ps = Loopback(c, 2, 2, "graph");
  const double ls = Quality(single, "heldout_loss"), lp = Quality(ps, "heldout_loss");
  INFO("held-out loss: untrained " << l0 << ", single " << ls << ", loopback " << lp);
  CHECK(ls < 0.6 * l0);
  CHECK(lp < 0.6 * l0);
  CHECK(std::abs(ls - lp) < 0.05 * ls);
  const auto& losses = ps.extra->at("train_loss_per_epoch");
  CHECK(losses.back().get<double>() < losses.front().get<double>());
}

TEST_CASE("mf: test RMSE decreases and the loopback PS matches the single node", "[workloads]") {
  TempDir dir("mf-run");
  REQUIRE(testing::WriteTinyMf(dir.path()).ok());
  RunConfig c = TinyConfig("mf", dir.path(), 30);
  const RunResult one = Single(TinyConfig("mf", dir.path(), 1), 1);
  const RunResult single = Single(c, 1);
  const RunResult ps = Loopback(c, 2, 2, "graph");
  const double r1 = Quality(one, "test_rmse"), rs = Quality(single, "test_rmse"),
               rp = Quality(ps, "test_rmse");
  INFO("test RMSE: 1 epoch " << r1 << ", 30 epochs single " << rs << ", loopback " << rp
                             << ", mean predictor " << Quality(single, "test_rmse_of_mean"));
  CHECK(rs < 0.8 * r1);
  CHECK(rs < Quality(single, "test_rmse_of_mean"));
  CHECK(std::abs(rs - rp) < 0.1 * rs);
  SECTION("--partition block (DSGD sub-epochs) trains every rating, as well") {
    c.policy = "adaptive";
    const RunResult blocked = Loopback(c, 2, 2, "block");
    const double rb = Quality(blocked, "test_rmse");
    INFO("blocked loopback " << rb);
    CHECK(blocked.samples == single.samples);
    CHECK(std::abs(rs - rb) < 0.1 * rs);
    // The column blocks travel from worker to worker, and accesses stay local.
    INFO("local " << blocked.totals.LocalAccessRatio());
    CHECK(blocked.totals[NodeCounter::kRelocations] > 0);
    CHECK(blocked.totals.LocalAccessRatio() > 0.9);
    // Each key's intents merge into one signal per epoch (a row) or
    // sub-epoch (a column): at most every key once per epoch, far fewer than
    // the two keys per rating that per-batch signals name.
    const uint64_t keys = blocked.totals[NodeCounter::kIntentKeys];
    INFO("intent keys " << keys << ", ratings trained " << blocked.samples);
    CHECK(keys > 0);
    CHECK(keys * 4 < blocked.samples);
    SECTION("per-batch intents under random partitioning name about two keys per rating") {
      const RunResult random = Loopback(c, 2, 2, "random");
      CHECK(random.totals[NodeCounter::kIntentKeys] > random.samples);
    }
  }
}

TEST_CASE("a diverging run stops unevaluated and says so", "[workloads]") {
  // SGD at lr 5 on the tiny matrix: the loss is NaN within the first epoch.
  TempDir dir("mf-diverge");
  REQUIRE(testing::WriteTinyMf(dir.path()).ok());
  RunConfig c = TinyConfig("mf", dir.path(), 5);
  c.learning_rate = 5;
  for (const RunResult& r : {Single(c, 1), Loopback(c, 2, 2, "graph")}) {
    INFO(r.backend << ": " << r.extra->dump());
    CHECK(r.extra->at("diverged").get<bool>());
    CHECK(r.extra->at("divergence").get<std::string>().find("training diverged in epoch 1") !=
          std::string::npos);
    CHECK_FALSE(r.extra->contains("quality"));
    CHECK(r.epoch_seconds.size() < 5);  // stopped early
  }
  c.learning_rate.reset();  // the default trains
  const RunResult fine = Loopback(c, 2, 2, "graph");
  CHECK_FALSE(fine.extra->at("diverged").get<bool>());
  CHECK(fine.extra->contains("quality"));
}

TEST_CASE("wv exploding in its first epoch is diverged against the untrained loss", "[workloads]") {
  // SGD at lr 0.55 on the tiny corpus, one epoch, one thread: the epoch's
  // mean loss (about 7e10) is the guard's first observation; only the
  // untrained model's loss per term, ln 2, shows it ran away.
  TempDir dir("wv-explode");
  testing::WriteTinyCorpus(dir);
  RunConfig c = TinyConfig("wv", dir.path(), 1);
  c.learning_rate = 0.55f;
  const RunResult r = Single(c, 1);
  INFO(r.extra->dump());
  CHECK(r.extra->at("diverged").get<bool>());
  CHECK(r.extra->at("divergence").get<std::string>().find("the untrained model's, 0.693147") !=
        std::string::npos);
  CHECK_FALSE(r.extra->contains("quality"));
  c.learning_rate = 0.05f;  // a trained model: reported
  const RunResult fine = Single(c, 1);
  CHECK_FALSE(fine.extra->at("diverged").get<bool>());
  CHECK(fine.extra->contains("quality"));
}

TEST_CASE("augur single reports a model worse than its untrained rows as diverged", "[workloads]") {
  // The single-node epoch loop with a stand-in workload: a training loss the
  // guard accepts, then an evaluation far worse than the untrained model's.
  RunConfig c;
  c.workload = "wv";
  c.epochs = 2;
  c.workers = 1;
  HogwildEpochs epochs;
  epochs.samples_per_epoch = 10;
  epochs.train = [](uint32_t, uint32_t, double* loss, uint64_t* terms) {
    *loss += 5;
    *terms += 10;
  };
  epochs.mean = [](double loss, uint64_t terms) { return loss / static_cast<double>(terms); };
  double heldout = 42;
  epochs.evaluate = [&] { return nlohmann::json{{"heldout_loss", heldout}}; };
  epochs.untrained = [] {
    return QualityFloor{"heldout_loss", nlohmann::json{{"heldout_loss", 4.159}}};
  };
  epochs.untrained_loss = 0.6931471805599453;
  const RunResult worse = RunHogwildEpochs(c, epochs, std::chrono::steady_clock::now());
  INFO(worse.extra->dump());
  CHECK(worse.extra->at("diverged").get<bool>());
  CHECK(worse.extra->at("divergence")
            .get<std::string>()
            .find("worse than the untrained model's 4.159") != std::string::npos);
  CHECK_FALSE(worse.extra->contains("quality"));
  heldout = 3.1;  // better than untrained: reported
  const RunResult better = RunHogwildEpochs(c, epochs, std::chrono::steady_clock::now());
  CHECK_FALSE(better.extra->at("diverged").get<bool>());
  CHECK(better.extra->at("quality").at("heldout_loss").get<double>() == 3.1);
}

const nlohmann::json& Sampling(const RunResult& r) { return r.extra->at("sampling"); }
uint64_t SamplingCount(const RunResult& r, const char* name) {
  return Sampling(r).at(name).get<uint64_t>();
}

// On one node each triple's rows are used where they are in the store and
// its gradients stepped into them at once (KgeJob::TrainDirect); on two, a
// triple whose rows are all held on its node is (KgeJob::TrainHeld), the
// others take the copy path. The negatives still come through the sampling
// access.
TEST_CASE("kge: rows held on the node train in place, to the single-node quality", "[workloads]") {
  TempDir dir("kge-in-place");
  REQUIRE(WriteKgDataset(testing::TinyKg(), dir.path()).ok());
  RunConfig c = TinyConfig("kge", dir.path(), 40);
  // One thread: deterministic, as the loopback runs are (2 Hogwild threads
  // spread the baseline's MRR over 0.46-0.56 on this graph).
  const RunResult single = Single(c, 1);
  const double ms = Quality(single, "test_mrr");
  c.sampling = "local";
  for (uint32_t nodes : {1u, 2u}) {
    const RunResult run = Loopback(c, nodes, 2, "random");
    const double m = Quality(run, "test_mrr");
    const uint64_t in_place = run.extra->at("samples_in_place").get<uint64_t>();
    INFO(nodes << " node(s): single MRR " << ms << ", MRR " << m << ", in place " << in_place
               << " of " << run.samples);
    CHECK(m > 0.3);  // random ranking of 120 entities gives ~0.04
    CHECK(std::abs(ms - m) < 0.3 * std::max(ms, m));
    CHECK(run.extra->at("row_access").get<std::string>().find("in place") != std::string::npos);
    CHECK(run.samples == 40 * testing::TinyKg().train.size());
    CHECK(SamplingCount(run, "sampled_keys") == run.samples * c.kge.negatives);
    if (nodes == 1) {
      CHECK(in_place == run.samples);
    } else {
      // Some triples find every row here (on 120 entities that four workers
      // share, about a tenth; on the first 50,000 WordNet triples over TCP,
      // 92%), the others take the copy path.
      CHECK(in_place > 0);
      CHECK(in_place < run.samples);
    }
  }
  // Naive sampling leaves negatives remote: every triple takes the copy path.
  c.sampling = "naive";
  const RunResult naive = Loopback(c, 2, 2, "random");
  CHECK(naive.extra->at("samples_in_place").get<uint64_t>() == 0);
  CHECK(Quality(naive, "test_mrr") > 0.3);
}

TEST_CASE("kge: negatives come through the PS sampling access, seeded", "[workloads]") {
  TempDir dir("kge-sampling");
  REQUIRE(WriteKgDataset(testing::TinyKg(), dir.path()).ok());
  RunConfig c = TinyConfig("kge", dir.path(), 2);
  const uint64_t needed = uint64_t{2} * testing::TinyKg().train.size() * c.kge.negatives;
  for (const char* scheme : {"naive", "preloc"}) {
    c.sampling = scheme;
    const RunResult a = Loopback(c, 2, 2, "graph");
    INFO(scheme << ": " << Sampling(a).dump());
    CHECK(SamplingCount(a, "sampled_keys") == needed);
    // Every negative is one draw from the workload's distribution, made by the sampler.
    CHECK(SamplingCount(a, "distribution_draws") == needed);
    // The draws depend on the seed only, not on thread timing.
    const RunResult b = Loopback(c, 2, 2, "graph");
    CHECK(SamplingCount(b, "sampled_key_sum") == SamplingCount(a, "sampled_key_sum"));
    RunConfig other = c;
    other.seed = 4;
    const RunResult d = Loopback(other, 2, 2, "graph");
    CHECK(SamplingCount(d, "sampled_key_sum") != SamplingCount(a, "sampled_key_sum"));
  }
  c.sampling = "pool";
  c.reuse = 4;
  const RunResult p = Loopback(c, 2, 2, "graph");
  INFO("pool: " << Sampling(p).dump());
  CHECK(SamplingCount(p, "sampled_keys") == needed);
  // Each pooled key serves `reuse` negatives: about a quarter of the draws.
  CHECK(SamplingCount(p, "distribution_draws") < needed / 2);
  CHECK(SamplingCount(p, "distribution_draws") >= needed / 4);
}

TEST_CASE("wv: negatives come through the PS sampling access", "[workloads]") {
  TempDir dir("wv-sampling");
  testing::WriteTinyCorpus(dir);
  RunConfig c = TinyConfig("wv", dir.path(), 1);
  c.sampling = "preloc";
  Result<std::unique_ptr<WvTask>> task = WvTask::Load(c);
  REQUIRE(task.ok());
  uint64_t pairs = 0;
  for (uint32_t s : (*task)->train_sentences()) pairs += (*task)->NumPairs(s, 0);
  const RunResult r = Loopback(c, 2, 2, "graph");
  INFO(Sampling(r).dump());
  REQUIRE(pairs > 0);
  CHECK(SamplingCount(r, "sampled_keys") == pairs * c.wv.negatives);
  CHECK(SamplingCount(r, "distribution_draws") == pairs * c.wv.negatives);
  // Output keys only: the sum lies within [V0, V0 + V) times the count.
  const uint64_t n = SamplingCount(r, "sampled_keys");
  const uint64_t sum = SamplingCount(r, "sampled_key_sum");
  CHECK(sum >= n * WvTask::kOutputKeyBase);
  CHECK(sum < n * (WvTask::kOutputKeyBase + (*task)->corpus().vocab_size()));
}

TEST_CASE("a missing data set is an error naming the file", "[workloads]") {
  RunConfig c = TinyConfig("kge", "/nonexistent/augur-data", 1);
  REQUIRE(c.Validate().ok());
  Result<std::unique_ptr<Job>> job = MakeJob(c);
  REQUIRE_FALSE(job.ok());
  CHECK_THAT(job.status().message(), Catch::Contains("/nonexistent/augur-data/entities.tsv"));
}

}  // namespace
}  // namespace augur

// QualityFloor: a trained model's evaluation against its untrained one's, and
// BatchJob's verdict on a run whose model ends worse than it started.
#include "experiments/jobs/quality_floor.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/drivers/loopback_driver.h"
#include "experiments/jobs/batch_job.h"

namespace augur {
namespace {

const QualityFloor kFloor{"heldout_loss", {{"heldout_loss", 4.159}, {"heldout_pairs", 10}}};

TEST_CASE("WorseThanUntrained: a model worse than its start, or NaN, diverged", "[quality_floor]") {
  CHECK(WorseThanUntrained(kFloor, {{"heldout_loss", 2.5}}, 3).empty());
  CHECK(WorseThanUntrained(kFloor, {{"heldout_loss", 4.159}}, 3).empty());  // not worse
  // Barely moved from its start (within the margin): unfinished, not diverged.
  CHECK(WorseThanUntrained(kFloor, {{"heldout_loss", 5.1}}, 1).empty());
  CHECK_FALSE(WorseThanUntrained(kFloor, {{"heldout_loss", 5.3}}, 1).empty());
  CHECK(WorseThanUntrained(kFloor, {{"heldout_loss", 42.51}}, 1) ==
        "training diverged: heldout_loss 42.51 after 1 epoch is more than 25% worse than the "
        "untrained model's 4.159 (its initial rows)");
  CHECK(WorseThanUntrained(kFloor, {{"heldout_loss", 6.0}}, 4).find("after 4 epochs") !=
        std::string::npos);
  // NaN: a number in memory, null once written (JSON has no NaN).
  CHECK_FALSE(WorseThanUntrained(kFloor, {{"heldout_loss", std::nan("")}}, 1).empty());
  CHECK_FALSE(WorseThanUntrained(kFloor, {{"heldout_loss", nullptr}}, 1).empty());
  // No verdict without both numbers.
  CHECK(WorseThanUntrained(kFloor, {{"test_rmse", 9.0}}, 1).empty());
  CHECK(WorseThanUntrained({"heldout_loss", nullptr}, {{"heldout_loss", 9.0}}, 1).empty());
}

// A job that trains nothing (each batch reports a constant loss, so no guard
// fires) and evaluates to a fixed number against a fixed untrained one: the
// floor alone decides. Keys 0..15, four floats each, 64 items.
class FixedQualityJob final : public BatchJob {
 public:
  FixedQualityJob(const RunConfig& c, double trained, double untrained)
      : BatchJob(c), trained_(trained), untrained_(untrained) {
    ItemKeys items;
    items.num_keys = 16;
    for (uint32_t i = 0; i < 64; ++i) items.Add({i % 16});
    Partition(items);
  }

 protected:
  ValueLayout Layout() const override { return ValueLayout(4); }
  OptimizerConfig Optimizer() const override { return {}; }
  void InitRow(Key, std::span<float> row) const override {
    std::fill(row.begin(), row.end(), 0.0f);
  }
  uint32_t RowLength() const override { return 4; }
  uint32_t BatchSize() const override { return 8; }
  double ComputeSecondsPerSample() const override { return 1e-6; }
  void IntentKeys(std::span<const uint32_t> items, uint32_t,
                  std::vector<Key>* keys) const override {
    for (uint32_t i : items) keys->push_back(i % 16);
  }
  BatchStats TrainBatch(Worker&, std::span<const uint32_t> items, uint32_t, Rng&, SampleHandle,
                        BatchRows&) const override {
    BatchStats s;
    s.loss = static_cast<double>(items.size());
    s.terms = s.samples = items.size();
    return s;
  }
  nlohmann::json Evaluate(Worker&) const override { return {{"error", trained_}}; }
  bool UntrainedQuality(QualityFloor* floor) const override {
    *floor = {"error", {{"error", untrained_}}};
    return true;
  }

 private:
  double trained_, untrained_;
};

RunResult RunFixed(double trained, double untrained) {
  RunConfig c;
  c.nodes = 2;
  c.workers = 2;
  c.epochs = 2;
  c.partition = "random";
  FixedQualityJob job(c, trained, untrained);
  Result<RunResult> r = RunOnLoopback(c, job);
  INFO(r.status().message());
  REQUIRE(r.ok());
  return *r;
}

TEST_CASE("A PS job whose model ends worse than its untrained rows is reported as diverged",
          "[quality_floor]") {
  const RunResult worse = RunFixed(7.0, 3.0);
  INFO(worse.extra->dump());
  CHECK(worse.extra->at("diverged").get<bool>());
  CHECK(worse.extra->at("divergence").get<std::string>() ==
        "training diverged: error 7 after 2 epochs is more than 25% worse than the untrained "
        "model's 3 (its initial rows)");
  CHECK_FALSE(worse.extra->contains("quality"));
  const RunResult better = RunFixed(1.0, 3.0);
  CHECK_FALSE(better.extra->at("diverged").get<bool>());
  CHECK(better.extra->at("quality").at("error").get<double>() == 1.0);
  const RunResult unmoved = RunFixed(3.5, 3.0);  // within the margin
  CHECK_FALSE(unmoved.extra->at("diverged").get<bool>());
}

}  // namespace
}  // namespace augur

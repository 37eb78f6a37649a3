// KgeEvaluator: filtered ranks and the MRR's standard error on embeddings
// whose scores are known by hand.
#include "experiments/kge/kge_evaluator.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <vector>

namespace augur {
namespace {

// dim 1: a row is (re, im). Relation (1, 0) and real entities x = 1, 2, 3
// score a triple (h, r, t) as x_h * x_t.
KgDataset ThreeEntities() {
  KgDataset d;
  d.entity_names = {"a", "b", "c"};
  d.relation_names = {"r"};
  d.test = {Triple{0, 0, 1}};
  return d;
}

// The quality of d's test split under those embeddings, on one thread.
KgeQuality RankTest(const KgDataset& d) {
  const std::vector<float> entities = {1, 0, 2, 0, 3, 0};
  const std::vector<float> relation = {1, 0};
  return KgeEvaluator(d).Evaluate(entities.data(), relation.data(), 1, d.test, 1);
}

TEST_CASE("kge evaluator: filtered ranks, their MRR and its standard error", "[kge]") {
  const KgDataset d = ThreeEntities();
  const KgeQuality q = RankTest(d);
  // (a, r, ?): scores 1, 2, 3, truth b ranks 2. (?, r, b): 2, 4, 6, truth a ranks 3.
  REQUIRE(q.queries == 2);
  CHECK(q.mrr == Approx((0.5 + 1.0 / 3.0) / 2));
  CHECK(q.hits1 == 0.0);
  CHECK(q.hits3 == 1.0);
  // Two reciprocal ranks a, b: sample sd |a - b| / sqrt(2), over sqrt(2) queries.
  CHECK(q.mrr_stderr == Approx((0.5 - 1.0 / 3.0) / 2));
}

TEST_CASE("kge evaluator: an empty split reports no measures, not an MRR of 0", "[kge]") {
  const nlohmann::json empty = KgeQuality{}.ToJson("valid_");
  CHECK(empty == nlohmann::json{{"valid_queries", 0}});
  KgeQuality one;
  one.mrr = 0.5;
  one.queries = 2;
  const nlohmann::json j = one.ToJson("test_");
  CHECK(j.at("test_mrr").get<double>() == 0.5);
  CHECK(j.at("test_queries").get<uint64_t>() == 2);
}

TEST_CASE("kge evaluator: a known true triple is filtered out of the ranking", "[kge]") {
  KgDataset d = ThreeEntities();
  d.train = {Triple{0, 0, 2}};  // (a, r, c) is true: c no longer outranks b
  const KgeQuality q = RankTest(d);
  CHECK(q.mrr == Approx((1.0 + 1.0 / 3.0) / 2));
  CHECK(q.mrr_stderr == Approx((1.0 - 1.0 / 3.0) / 2));
}

TEST_CASE("kge evaluator: equal reciprocal ranks have no spread", "[kge]") {
  KgDataset d = ThreeEntities();
  d.test = {Triple{2, 0, 2}};  // (c, r, ?) and (?, r, c): c scores highest both ways
  const KgeQuality q = RankTest(d);
  CHECK(q.mrr == Approx(1.0));
  CHECK(q.mrr_stderr == Approx(0.0).margin(1e-12));
}

}  // namespace
}  // namespace augur

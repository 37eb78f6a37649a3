#include "core/store/param_store.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace augur {
namespace {

ValueLayout TwoRangeLayout() {
  // Entities (keys < 1000) have 4 floats, relations [1000, 1010) have 2, the rest 3.
  Result<ValueLayout> l = ValueLayout::Create(3, {{1000, 1010, 2}, {0, 1000, 4}});
  REQUIRE(l.ok());
  return *l;
}

TEST_CASE("ValueLayout gives per-range lengths and rejects bad ranges", "[store]") {
  ValueLayout l = TwoRangeLayout();
  CHECK(l.Length(0) == 4);
  CHECK(l.Length(999) == 4);
  CHECK(l.Length(1000) == 2);
  CHECK(l.Length(1009) == 2);
  CHECK(l.Length(1010) == 3);
  CHECK(l.Length(~Key{0}) == 3);
  CHECK(l.MaxLength() == 4);
  CHECK_FALSE(ValueLayout::Create(3, {{0, 10, 2}, {5, 20, 2}}).ok());
  CHECK_FALSE(ValueLayout::Create(3, {{10, 10, 2}}).ok());
  CHECK_FALSE(ValueLayout::Create(3, {{0, 10, 0}}).ok());
  CHECK_FALSE(ValueLayout::Create(0, {}).ok());
}

TEST_CASE("ParamStore creates on touch with the initializer, pulls, pushes, sets", "[store]") {
  ParamStore store(TwoRangeLayout(), [](Key k, std::span<float> v) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(k % 7 + i);
  });
  std::vector<float> out(4);
  CHECK_FALSE(store.Pull(5, out.data(), false));  // absent and not created
  REQUIRE(store.Pull(5, out.data(), true));
  CHECK(out == std::vector<float>{5, 6, 7, 8});
  const std::vector<float> one{1, 1, 1, 1};
  REQUIRE(store.Push(5, one.data(), false));
  REQUIRE(store.Pull(5, out.data(), false));
  CHECK(out == std::vector<float>{6, 7, 8, 9});
  const std::vector<float> rel{9, 9};
  REQUIRE(store.Set(1003, rel.data(), true));
  std::vector<float> rel_out(2);
  REQUIRE(store.Pull(1003, rel_out.data(), false));
  CHECK(rel_out == rel);
  CHECK(store.Size() == 2);
}

TEST_CASE("ParamStore Remove/Install move a row and reuse freed space", "[store]") {
  ParamStore store(ValueLayout(8), nullptr);
  std::vector<float> v(8, 2.5f), row(8);
  for (Key k = 0; k < 100; ++k) REQUIRE(store.Set(k, v.data(), true));
  REQUIRE(store.Remove(42, row.data()));
  CHECK(row == v);
  CHECK_FALSE(store.Contains(42));
  CHECK_FALSE(store.Remove(42, nullptr));
  store.Install(42, CopyKind::kReplica, row.data(), 7);
  bool seen = false;
  store.With(42, false, [&](ParamStore::Entry& e) {
    seen = true;
    CHECK(e.kind == CopyKind::kReplica);
    CHECK(*e.version == 7);
    REQUIRE(e.delta != nullptr);
    CHECK(e.delta[0] == 0.0f);
  });
  CHECK(seen);
  // A push to a replica lands in value and delta.
  std::vector<float> up(8, 1.0f);
  REQUIRE(store.Push(42, up.data(), false));
  store.With(42, false, [&](ParamStore::Entry& e) {
    CHECK(e.value[3] == 3.5f);
    CHECK(e.delta[3] == 1.0f);
  });
}

TEST_CASE("AdaGrad keeps its accumulator beside the value and moves it with the row", "[store]") {
  OptimizerConfig opt;
  opt.kind = OptimizerKind::kAdaGrad;
  opt.learning_rate = 0.5f;
  opt.initial_accumulator = 1.0f;
  ParamStore store(ValueLayout(2), nullptr, opt);
  REQUIRE(store.RowLength(1) == 4);
  const std::vector<float> g{2.0f, -1.0f};
  REQUIRE(store.Push(1, g.data(), true));
  std::vector<float> row(4);
  REQUIRE(store.ReadRow(1, row.data()));
  CHECK(row[2] == Approx(5.0f));  // acc = 1 + 4
  CHECK(row[3] == Approx(2.0f));  // acc = 1 + 1
  CHECK(row[0] == Approx(-0.5f * 2.0f / std::sqrt(5.0f)));
  CHECK(row[1] == Approx(0.5f * 1.0f / std::sqrt(2.0f)));
  ParamStore other(ValueLayout(2), nullptr, opt);
  REQUIRE(store.Remove(1, row.data()));
  other.Install(1, CopyKind::kMain, row.data());
  std::vector<float> row2(4);
  REQUIRE(other.ReadRow(1, row2.data()));
  CHECK(row2 == row);
}

}  // namespace
}  // namespace augur

#include "core/store/param_store.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/base/rng.h"

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

TEST_CASE("ParamStore's lock-free HeldNow follows every insert and erase in the layout's ranges",
          "[store]") {
  // Ranges [0, 1000) and [1000, 1010) are tracked; keys from 1010 on are not.
  ParamStore store(TwoRangeLayout(), nullptr);
  Rng rng(11);
  std::vector<float> row(8, 1.0f);
  ParamStore::BatchScratch scratch;
  for (int step = 0; step < 4000; ++step) {
    const Key k = rng.Below(1040);
    switch (rng.Below(6)) {
      case 0:
        store.Pull(k, row.data(), /*create=*/true);
        break;
      case 1:
        store.Install(k, CopyKind::kReplica, row.data());
        break;
      case 2:
        store.Remove(k, nullptr);
        break;
      case 3:
        store.TakeReplica(k, row.data());
        break;
      case 4:
        store.InstallMain(k, row.data(), 1);
        break;
      case 5: {
        const std::vector<Key> keys{k, (k + 1) % 1040};
        const std::vector<uint32_t> offsets{0, 4};
        store.PullBatch(keys, offsets, row.data(), &scratch, /*create=*/true);
        break;
      }
    }
  }
  size_t held = 0;
  for (Key k = 0; k < 1040; ++k) {
    INFO("key " << k);
    const HeldBitmap::Held h = store.HeldNow(k);
    if (k >= 1010) {
      CHECK(h == HeldBitmap::Held::kUnknown);
      continue;
    }
    CHECK((h == HeldBitmap::Held::kYes) == store.ReadRow(k, row.data()));  // a locked lookup
    held += h == HeldBitmap::Held::kYes;
  }
  CHECK(held > 100);  // the sequence left both held and absent keys
  CHECK(held < 1000);
  // A range too long for a bitmap is not tracked.
  ParamStore wide(*ValueLayout::Create(2, {{0, HeldBitmap::kMaxTrackedKeys + 1, 1}}), nullptr);
  wide.Pull(5, row.data(), /*create=*/true);
  CHECK(wide.HeldNow(5) == HeldBitmap::Held::kUnknown);
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

TEST_CASE("Prefetch is a hint: on empty stripes and through growth it changes nothing", "[store]") {
  ParamStore store(ValueLayout(2), nullptr, OptimizerConfig{}, 64);
  // Stripes never written have no hint yet; a lookup of any key must stay safe.
  for (Key k = 0; k < 256; ++k) store.Prefetch(k);
  CHECK(store.Size() == 0);
  std::vector<float> v{1.0f, 2.0f};
  for (Key k = 0; k < 4096; ++k) {
    store.Prefetch(k + 1);  // ahead of the insert that may grow its stripe
    REQUIRE(store.Set(k, v.data(), true));
  }
  for (Key k = 0; k < 8192; ++k) store.Prefetch(k);
  CHECK(store.Size() == 4096);
  float sum = 0;
  for (Key k = 0; k < 4096; ++k)
    store.With(k, false, [&](ParamStore::Entry& e) { sum += e.value[0] + e.value[1]; });
  CHECK(sum == 4096 * 3.0f);
  CHECK_FALSE(store.Contains(5000));
}

TEST_CASE("WithPair runs on two held rows under their locks, and on none if one is absent",
          "[store]") {
  // One stripe puts both keys under one lock; 64 spread them over two.
  const uint32_t stripes = GENERATE(1u, 64u);
  ParamStore store(ValueLayout(2), nullptr, OptimizerConfig{}, stripes);
  std::vector<float> v{1.0f, 2.0f};
  for (Key k = 0; k < 32; ++k) REQUIRE(store.Set(k, v.data(), true));
  for (Key a = 0; a < 32; ++a) {
    const Key b = (a * 7 + 3) % 32 == a ? (a + 1) % 32 : (a * 7 + 3) % 32;
    const bool ran = store.WithPair(a, b, [&](ParamStore::Entry& x, ParamStore::Entry& y) {
      CHECK(x.value != y.value);
      x.value[0] += 1.0f;
      y.value[1] += 10.0f;
    });
    CHECK(ran);
  }
  float sum = 0;
  for (Key k = 0; k < 32; ++k)
    store.With(k, false, [&](ParamStore::Entry& e) { sum += e.value[0] + e.value[1]; });
  CHECK(sum == 32 * 3.0f + 32 * 11.0f);

  bool ran = false;
  CHECK_FALSE(store.WithPair(5, 99, [&](ParamStore::Entry&, ParamStore::Entry&) { ran = true; }));
  CHECK_FALSE(store.WithPair(99, 5, [&](ParamStore::Entry&, ParamStore::Entry&) { ran = true; }));
  CHECK_FALSE(ran);
  // A replica is held too: the pair sees its delta.
  std::vector<float> row(2, 0.0f);
  store.Install(99, CopyKind::kReplica, row.data());
  CHECK(store.WithPair(5, 99, [&](ParamStore::Entry& x, ParamStore::Entry& y) {
    CHECK(x.delta == nullptr);
    CHECK(y.delta != nullptr);
  }));
}

TEST_CASE("UpdateResolved steps each resolved key as a push of that one update would", "[store]") {
  OptimizerConfig adagrad;
  adagrad.kind = OptimizerKind::kAdaGrad;
  adagrad.learning_rate = 0.1f;
  ParamStore stepped(ValueLayout(3), nullptr, adagrad), pushed(ValueLayout(3), nullptr, adagrad);
  const std::vector<float> row = {1, -2, 3, 0.5f, 0.25f, 0};  // value, then accumulator
  for (ParamStore* s : {&stepped, &pushed}) {
    s->Install(1, CopyKind::kMain, row.data());
    s->Install(2, CopyKind::kReplica, row.data());
    s->Install(3, CopyKind::kMain, row.data());
  }
  const std::vector<Key> keys = {2, 1, 3};
  const std::vector<float> u = {0.5f, -1, 2};
  const std::vector<const float*> updates = {u.data(), u.data(), u.data()};
  std::vector<ParamStore::Entry> entries(keys.size());
  ParamStore::BatchScratch scratch;
  stepped.ResolveBatch(keys, entries.data(), &scratch, /*create=*/false);
  REQUIRE(scratch.missing.empty());
  uint64_t since = stepped.moves();
  std::vector<float> delta(6);
  UpdateToDelta(adagrad, u.data(), 3, delta.data());
  const auto same_rows = [&](std::initializer_list<Key> ks) {
    for (Key k : ks) {
      std::vector<float> a(6), b(6);
      REQUIRE(stepped.ReadRow(k, a.data()));
      REQUIRE(pushed.ReadRow(k, b.data()));
      CHECK(a == b);
      CHECK(a != row);
    }
  };

  SECTION("nothing moved: each view takes its step") {
    stepped.UpdateResolved(keys, entries, since, updates, &scratch);
    CHECK(scratch.missing.empty());
    for (Key k : keys) REQUIRE(pushed.Push(k, delta.data(), false));
    same_rows({1, 2, 3});
    std::vector<float> da(6), db(6);
    REQUIRE(stepped.TakeReplica(2, da.data()));
    REQUIRE(pushed.TakeReplica(2, db.data()));
    CHECK(da == db);
    CHECK(da == delta);
  }
  SECTION("a key removed since: it is missing, the others are looked up and stepped") {
    REQUIRE(stepped.Remove(3, nullptr));
    REQUIRE(stepped.moves() != since);
    stepped.UpdateResolved(keys, entries, since, updates, &scratch);
    CHECK(scratch.missing == std::vector<uint32_t>{2});
    for (Key k : {Key{1}, Key{2}}) REQUIRE(pushed.Push(k, delta.data(), false));
    same_rows({1, 2});
  }
}

TEST_CASE("PullMainBatch and PushMainBatch serve main copies only, in any key order", "[store]") {
  ParamStore store(ValueLayout(3), nullptr);
  const std::vector<float> v{1, 2, 3};
  for (Key k : {10, 11, 12}) REQUIRE(store.Set(k, v.data(), true));
  store.Install(20, CopyKind::kReplica, v.data(), 0);  // a replica: not served
  // Absent (30), replica (20), main (12, 10, and 10 again).
  const std::vector<Key> keys{30, 12, 20, 10, 10};
  const std::vector<uint32_t> offsets{0, 3, 6, 9, 12};
  ParamStore::BatchScratch scratch;
  std::vector<float> out(15, -1.0f);
  store.PullMainBatch(keys, offsets, out.data(), &scratch);
  CHECK(scratch.missing == std::vector<uint32_t>{0, 2});
  CHECK(std::vector<float>(out.begin() + 3, out.begin() + 6) == v);
  CHECK(std::vector<float>(out.begin() + 12, out.end()) == v);
  CHECK(out[0] == -1.0f);  // a missing key's values are left alone
  CHECK(out[6] == -1.0f);
  std::vector<float> up(15, 1.0f);
  store.PushMainBatch(keys, offsets, up.data(), &scratch);
  CHECK(scratch.missing == std::vector<uint32_t>{0, 2});
  std::vector<float> row(3);
  REQUIRE(store.Pull(10, row.data(), false));
  CHECK(row == std::vector<float>{3, 4, 5});  // pushed twice
  REQUIRE(store.Pull(12, row.data(), false));
  CHECK(row == std::vector<float>{2, 3, 4});
  REQUIRE(store.Pull(20, row.data(), false));
  CHECK(row == v);  // the replica took nothing
  CHECK_FALSE(store.Contains(30));
}

TEST_CASE("AdaGrad keeps its accumulator beside the value and moves it with the row", "[store]") {
  OptimizerConfig opt;
  opt.kind = OptimizerKind::kAdaGrad;
  opt.learning_rate = 0.5f;
  opt.initial_accumulator = 1.0f;
  ParamStore store(ValueLayout(2), nullptr, opt);
  REQUIRE(store.RowLength(1) == 4);
  const std::vector<float> g{2.0f, -1.0f, 4.0f, 1.0f};  // a push's delta: g, then g^2
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

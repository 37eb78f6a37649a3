// ParamStore under real threads (also built into augur_tcp_tests, so it runs
// under ThreadSanitizer too): concurrent batch pushes that create keys, single
// pushes and pulls, direct views held while other threads grow the same
// stripes, and churn (Install/Remove) on other keys. Every update is an
// integer, so the final values are exact sums: a lost, doubled or torn
// update fails the test. Seeded: each thread's key sequence is deterministic.
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "core/base/rng.h"
#include "core/store/param_store.h"

namespace augur {
namespace {

constexpr uint32_t kDim = 8;
constexpr uint64_t kKeys = 512;  // shared by every thread: heavy overlap

TEST_CASE("ParamStore keeps every update exactly once under concurrent threads",
          "[store][stress]") {
  ParamStore store(ValueLayout(kDim), nullptr, OptimizerConfig{}, /*stripes=*/8);
  constexpr uint32_t kThreads = 4, kRounds = 300, kBatch = 32;
  std::vector<std::vector<uint64_t>> pushes(kThreads, std::vector<uint64_t>(kKeys, 0));
  std::vector<std::vector<uint64_t>> singles(kThreads, std::vector<uint64_t>(kKeys, 0));
  std::vector<int> bad_views(kThreads, 0);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(DeriveSeed(7, t, 0));
      ParamStore::BatchScratch scratch;
      std::vector<Key> keys(kBatch);
      std::vector<uint32_t> offsets(kBatch);
      std::vector<float> ones(kBatch * kDim, 1.0f);
      for (uint32_t i = 0; i < kBatch; ++i) offsets[i] = i * kDim;
      for (uint32_t round = 0; round < kRounds; ++round) {
        // Distinct keys per batch (a batch may not name a key twice).
        const uint64_t start = rng.Below(kKeys);
        for (uint32_t i = 0; i < kBatch; ++i) keys[i] = (start + i * 7) % kKeys;
        store.PushBatch(keys, offsets, ones.data(), &scratch, /*create=*/true);
        for (Key k : keys) ++pushes[t][k];
        // Single-key pushes of 2 on another key, and a pull that must see
        // this thread's own pushes at least.
        const Key single = rng.Below(kKeys);
        std::vector<float> twos(kDim, 2.0f), seen(kDim);
        REQUIRE(store.Push(single, twos.data(), /*create=*/true));
        singles[t][single] += 2;
        REQUIRE(store.Pull(single, seen.data(), false));
        if (seen[0] < static_cast<float>(pushes[t][single] + singles[t][single])) ++bad_views[t];
        // Churn on keys nobody else touches: rows are freed and reused,
        // arenas grow, which must not move the rows the others hold.
        const Key mine = (Key{1} << 40) + t * 100000 + round;
        std::vector<float> row(kDim, static_cast<float>(round));
        store.Install(mine, CopyKind::kMain, row.data());
        if (round % 2 == 0) CHECK(store.Remove(mine, nullptr));
        // A direct view keeps its address while the stripes grow and churn
        // (only the address is compared: the value changes under the others).
        const Key probe = keys[0];
        ParamStore::Entry view{}, again{};
        store.ResolveBatch(std::span<const Key>(&probe, 1), &view, &scratch, /*create=*/false);
        store.Install(mine + 50000, CopyKind::kMain, row.data());  // grows this thread's stripe
        store.ResolveBatch(std::span<const Key>(&probe, 1), &again, &scratch, /*create=*/false);
        if (view.value == nullptr || again.value != view.value) ++bad_views[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (uint32_t t = 0; t < kThreads; ++t) CHECK(bad_views[t] == 0);
  std::vector<float> out(kDim);
  uint64_t checked = 0;
  for (Key k = 0; k < kKeys; ++k) {
    uint64_t expected = 0;
    for (uint32_t t = 0; t < kThreads; ++t) expected += pushes[t][k] + singles[t][k];
    if (!store.Pull(k, out.data(), false)) {
      CHECK(expected == 0);
      continue;
    }
    for (float v : out) CHECK(v == static_cast<float>(expected));
    ++checked;
  }
  CHECK(checked > kKeys / 2);
}

}  // namespace
}  // namespace augur

namespace augur {
namespace {

// WithPair under threads that also push single keys: pairs take two stripe
// locks in stripe order, so no two threads deadlock, and every increment of
// either row of a pair lands exactly once.
TEST_CASE("ParamStore::WithPair keeps every paired update exactly once under threads",
          "[store][stress]") {
  ParamStore store(ValueLayout(kDim), nullptr, OptimizerConfig{}, /*stripes=*/8);
  std::vector<float> zeros(kDim, 0.0f);
  for (Key k = 0; k < kKeys; ++k) REQUIRE(store.Set(k, zeros.data(), true));
  constexpr uint32_t kThreads = 4, kRounds = 20000;
  std::vector<std::vector<uint64_t>> adds(kThreads, std::vector<uint64_t>(kKeys, 0));
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(DeriveSeed(11, t, 0));
      std::vector<float> one(kDim, 1.0f);
      for (uint32_t round = 0; round < kRounds; ++round) {
        const Key a = rng.Below(kKeys);
        const Key b = (a + 1 + rng.Below(kKeys - 1)) % kKeys;
        if (round % 4 == 3) {
          if (store.Push(a, one.data(), false)) ++adds[t][a];
          continue;
        }
        const bool ran = store.WithPair(a, b, [](ParamStore::Entry& x, ParamStore::Entry& y) {
          for (uint32_t i = 0; i < kDim; ++i) {
            x.value[i] += 1.0f;
            y.value[i] += 1.0f;
          }
        });
        if (ran) {
          ++adds[t][a];
          ++adds[t][b];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  uint64_t wrong = 0;
  for (Key k = 0; k < kKeys; ++k) {
    uint64_t expected = 0;
    for (uint32_t t = 0; t < kThreads; ++t) expected += adds[t][k];
    store.With(k, false, [&](ParamStore::Entry& e) {
      for (uint32_t i = 0; i < kDim; ++i) wrong += e.value[i] != static_cast<float>(expected);
    });
  }
  CHECK(wrong == 0);
}

}  // namespace
}  // namespace augur

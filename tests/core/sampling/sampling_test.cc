// Sampling access: exact schemes reproduce the application's distribution
// (chi-square, fixed seed); every scheme returns values for its keys.
#include "core/sampling/sampling.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <optional>

#include "core/protocol/home.h"
#include "tests/core/protocol/cluster_scenarios.h"

namespace augur {
namespace {

// P(i) proportional to i + 1 over keys 0..9.
Key DrawTriangular(Rng& rng) {
  uint64_t u = rng.Below(55);
  for (Key i = 0; i < 10; ++i) {
    if (u < i + 1) return i;
    u -= i + 1;
  }
  return 9;
}

std::map<Key, uint64_t> SampleCounts(SampleScheme scheme, const std::string& policy) {
  LoopbackOptions o = testing::JitteryCluster(3, 1, 4);
  o.node.sampling.scheme = scheme;
  o.node.sampling.reuse = 3;
  o.node.sampling.draw = DrawTriangular;
  o.node.policy = *MakePolicy(policy);
  LoopbackCluster cluster(o);
  std::map<Key, uint64_t> counts;
  REQUIRE(cluster
              .Run([&](Worker& w) {
                std::vector<Key> keys;
                std::vector<float> values;
                for (Clock c = 0; c < 300; ++c) {
                  SampleHandle h = w.PrepareSample(20, c + 1, c + 2);
                  w.AdvanceClock();
                  w.PullSample(h, &keys, &values);
                  REQUIRE(keys.size() == 20);
                  REQUIRE(values.size() == 40);
                  if (w.node_id() == 0)
                    for (Key k : keys) ++counts[k];
                }
                w.Barrier();
              })
              .ok());
  return counts;
}

double ChiSquare(const std::map<Key, uint64_t>& counts) {
  uint64_t n = 0;
  for (const auto& [k, c] : counts) n += c;
  double chi = 0;
  for (Key i = 0; i < 10; ++i) {
    const double expected = n * (i + 1) / 55.0;
    const double got = counts.count(i) ? static_cast<double>(counts.at(i)) : 0.0;
    chi += (got - expected) * (got - expected) / expected;
  }
  return chi;
}

TEST_CASE("naive, prefetch and preloc sampling follow the application's distribution",
          "[sampling]") {
  constexpr double kChi2Critical = 27.88;  // 9 degrees of freedom, p = 0.001
  CHECK(ChiSquare(SampleCounts(SampleScheme::kNaive, "classic")) < kChi2Critical);
  CHECK(ChiSquare(SampleCounts(SampleScheme::kPrefetch, "adaptive")) < kChi2Critical);
  CHECK(ChiSquare(SampleCounts(SampleScheme::kPreloc, "adaptive")) < kChi2Critical);
  CHECK(ChiSquare(SampleCounts(SampleScheme::kPool, "adaptive")) < 3 * kChi2Critical);
}

TEST_CASE("the chi-square check detects a biased scheme", "[sampling]") {
  // local sampling prefers keys held locally: with relocation it is biased.
  std::map<Key, uint64_t> skewed;
  for (Key i = 0; i < 10; ++i) skewed[i] = 100;  // uniform instead of triangular
  CHECK(ChiSquare(skewed) > 27.88);
  CHECK(SampleCounts(SampleScheme::kLocal, "adaptive").size() > 0);
}

// Local sampling on 3 nodes of one worker under classic, after node 0 set
// keys 0..9 (so each is held at its home): every node's keys over `clocks`
// samples of `k` keys drawn with `draw`.
std::vector<std::vector<Key>> LocalDraws(Key (*draw)(Rng&), Clock clocks, uint32_t k) {
  LoopbackOptions o = testing::JitteryCluster(3, 1, 4);
  o.node.sampling.scheme = SampleScheme::kLocal;
  o.node.sampling.draw = draw;
  o.node.policy = *MakePolicy("classic");
  LoopbackCluster cluster(o);
  std::vector<std::vector<Key>> drawn(3);
  REQUIRE(cluster
              .Run([&](Worker& w) {
                std::vector<Key> all;
                for (Key i = 0; i < 10; ++i) all.push_back(i);
                if (w.node_id() == 0)
                  REQUIRE(w.Wait(w.Set(all, std::vector<float>(20, 1.0f))).ok());
                w.Barrier();
                std::vector<Key> keys;
                std::vector<float> values;
                for (Clock c = 0; c < clocks; ++c) {
                  SampleHandle h = w.PrepareSample(k, c + 1, c + 2);
                  w.AdvanceClock();
                  w.PullSample(h, &keys, &values);
                  REQUIRE(keys.size() == k);
                  drawn[w.node_id()].insert(drawn[w.node_id()].end(), keys.begin(), keys.end());
                }
                w.Barrier();
              })
              .ok());
  return drawn;
}

TEST_CASE("local sampling draws only keys held on the node", "[sampling]") {
  // Classic: every key stays at its home node, so a node holds exactly the
  // keys homed there once they have been touched. Watched: the node whose
  // home keys weigh most under the draw.
  std::vector<double> home_weight(3, 0.0);  // the probability a draw is homed at node n
  for (Key i = 0; i < 10; ++i) home_weight[HomeNode(i, 3)] += (i + 1) / 55.0;
  const NodeId watched = static_cast<NodeId>(
      std::max_element(home_weight.begin(), home_weight.end()) - home_weight.begin());
  REQUIRE(home_weight[watched] >= 0.2);  // kLocalTries misses in a row: below 1e-24 per key
  const std::vector<Key> drawn = LocalDraws(DrawTriangular, 100, 20)[watched];
  REQUIRE(drawn.size() == 2000);
  for (Key k : drawn) {
    INFO("key " << k);
    REQUIRE(HomeNode(k, 3) == watched);
  }
}

TEST_CASE(
    "local sampling stays local where held keys are rare: a run of misses repeats the last held "
    "key",
    "[sampling]") {
  // Keys 0..9 are touched (so held at their homes under classic); a draw
  // hits them once in 50, and otherwise a key of 1000..100999 nobody holds.
  // A node holding 3 of the 10 then misses 256 draws in a row about one
  // time in five: such a key was remote (a message per batch) before; now
  // it is the node's last held draw again.
  const std::vector<std::vector<Key>> drawn = LocalDraws(
      [](Rng& rng) -> Key { return rng.Below(50) == 0 ? rng.Below(10) : 1000 + rng.Below(100000); },
      40, 10);
  uint32_t checked = 0;
  for (NodeId n = 0; n < 3; ++n) {
    INFO("node " << n);
    const std::vector<Key>& d = drawn[n];
    REQUIRE(d.size() == 400);
    uint32_t held = 0;
    for (Key i = 0; i < 10; ++i) held += HomeNode(i, 3) == n;
    if (held == 0) continue;  // nothing to draw locally: every draw stays remote
    ++checked;
    // Until its first held draw a node has nothing to repeat.
    const auto first = std::find_if(d.begin(), d.end(), [&](Key k) { return k < 10; });
    REQUIRE(first != d.end());
    CHECK(first - d.begin() < 20);
    for (auto it = first; it != d.end(); ++it) {
      INFO("key " << *it);
      REQUIRE(*it < 10);
      REQUIRE(HomeNode(*it, 3) == n);
    }
  }
  CHECK(checked >= 2);
}

// Node 0's sampled keys and values over 60 samples prepared 3 clocks ahead,
// after every key k was set to (k, k + 0.5).
std::pair<std::vector<Key>, std::vector<float>> LeadSamples(SampleScheme scheme) {
  LoopbackOptions o = testing::JitteryCluster(3, 1, 4);
  o.node.sampling.scheme = scheme;
  o.node.sampling.draw = DrawTriangular;
  o.node.policy = *MakePolicy("classic");  // most keys stay remote
  LoopbackCluster cluster(o);
  std::vector<Key> all_keys;
  std::vector<float> all_values;
  REQUIRE(cluster
              .Run([&](Worker& w) {
                if (w.node_id() == 0) {
                  std::vector<Key> all;
                  std::vector<float> values;
                  for (Key i = 0; i < 10; ++i) {
                    all.push_back(i);
                    values.push_back(static_cast<float>(i));
                    values.push_back(static_cast<float>(i) + 0.5f);
                  }
                  REQUIRE(w.Wait(w.Set(all, values)).ok());
                }
                w.Barrier();
                constexpr Clock kLead = 3, kSamples = 60;
                std::deque<SampleHandle> ahead;
                for (Clock c = 0; c < kLead; ++c) ahead.push_back(w.PrepareSample(7, c, c + 1));
                std::vector<Key> keys;
                std::vector<float> values;
                for (Clock c = 0; c < kSamples; ++c) {
                  if (c + kLead < kSamples)
                    ahead.push_back(w.PrepareSample(7, c + kLead, c + kLead + 1));
                  w.PullSample(ahead.front(), &keys, &values);
                  ahead.pop_front();
                  w.AdvanceClock();
                  if (w.node_id() != 0) continue;
                  all_keys.insert(all_keys.end(), keys.begin(), keys.end());
                  all_values.insert(all_values.end(), values.begin(), values.end());
                }
                w.Barrier();
              })
              .ok());
  return {all_keys, all_values};
}

TEST_CASE("prefetch draws naive's keys and returns each key's own values", "[sampling]") {
  const auto [naive_keys, naive_values] = LeadSamples(SampleScheme::kNaive);
  const auto [keys, values] = LeadSamples(SampleScheme::kPrefetch);
  REQUIRE(keys.size() == 420);
  CHECK(keys == naive_keys);  // the same draws from the worker's stream, only earlier
  REQUIRE(values.size() == 2 * keys.size());
  for (size_t j = 0; j < keys.size(); ++j) {
    INFO("sampled key " << j << ": " << keys[j]);
    REQUIRE(values[2 * j] == static_cast<float>(keys[j]));
    REQUIRE(values[2 * j + 1] == static_cast<float>(keys[j]) + 0.5f);
  }
  CHECK(values == naive_values);  // nothing changed the rows: the same values
}

// A stand-in for the worker: the sampler's only way to pull and signal intent.
class RecordingAccess final : public SampleAccess {
 public:
  Clock clock() const override { return clock_; }
  void Intent(std::span<const Key> keys, Clock, Clock) override { intent_keys += keys.size(); }
  Ticket Pull(std::span<const Key> keys, std::span<float> out) override {
    ++pulls;
    for (size_t i = 0; i < keys.size(); ++i) out[i] = static_cast<float>(keys[i]);
    return Ticket{};
  }
  Status Wait(Ticket) override { return Status::Ok(); }
  Clock clock_ = 0;
  size_t intent_keys = 0;
  size_t pulls = 0;
};

TEST_CASE("a sampler needs only its SampleAccess, the layout and the store", "[sampling]") {
  // Whether a draw is held comes from the store's bitmap for keys in the
  // layout's ranges and from a store lookup for the others: no range, then
  // a range [0, 5) that tracks key 3 and leaves 7 and 9 to lookups.
  const bool ranged = GENERATE(false, true);
  INFO("layout with a tracked range: " << ranged);
  ParamStore store(ranged ? *ValueLayout::Create(1, {{0, 5, 1}}) : ValueLayout(1), nullptr);
  for (Key k : {Key{3}, Key{7}}) store.With(k, /*create=*/true, [](ParamStore::Entry&) {});
  RecordingAccess access;
  SECTION("local draws only keys the store holds, without pulling through a node") {
    WorkerSampler sampler(SamplingOptions{.scheme = SampleScheme::kLocal, .draw = DrawTriangular},
                          1, access, SampleLocality{store.layout(), store, false});
    std::vector<Key> keys;
    sampler.Pull(sampler.Prepare(50, 1, 2), &keys, nullptr);
    REQUIRE(keys.size() == 50);
    for (Key k : keys) CHECK((k == 3 || k == 7));
    CHECK(access.pulls == 0);
  }
  SECTION(
      "local takes, per key, the first held of up to kLocalTries draws of the worker's "
      "stream, else the last held draw") {
    // Key 9 is never held: a distribution of only 9s takes the last draw.
    for (bool only_nines : {false, true}) {
      const auto draw = only_nines ? [](Rng&) { return Key{9}; } : DrawTriangular;
      WorkerSampler sampler(SamplingOptions{.scheme = SampleScheme::kLocal, .draw = draw}, 5,
                            access, SampleLocality{store.layout(), store, false});
      std::vector<Key> keys;
      for (uint32_t k : {1u, 37u, 200u}) {  // blocks of several sizes, one stream
        std::vector<Key> more;
        sampler.Pull(sampler.Prepare(k, 1, 2), &more, nullptr);
        keys.insert(keys.end(), more.begin(), more.end());
      }
      // The same stream, drawn and looked up one key at a time.
      Rng rng(5);
      uint64_t draws = 0;
      std::vector<Key> expected;
      std::optional<Key> last_held;
      while (expected.size() < keys.size()) {
        Key key = draw(rng);
        ++draws;
        for (uint32_t tries = 1; tries < WorkerSampler::kLocalTries && !store.Contains(key);
             ++tries, ++draws)
          key = draw(rng);
        if (store.Contains(key)) {
          last_held = key;
        } else if (last_held) {
          key = *last_held;
        }
        expected.push_back(key);
      }
      CHECK(keys == expected);
      CHECK(sampler.draws() == draws);
    }
  }
  SECTION("pool signals intent at prepare time and pulls the values once") {
    WorkerSampler sampler(SamplingOptions{.scheme = SampleScheme::kPool, .draw = DrawTriangular}, 1,
                          access, SampleLocality{store.layout(), store, false});
    const SampleHandle h = sampler.Prepare(8, 1, 2);
    CHECK(access.intent_keys == 8);
    std::vector<Key> keys;
    std::vector<float> values;
    sampler.Pull(h, &keys, &values);
    CHECK(access.pulls == 1);
    REQUIRE(values.size() == keys.size());
    for (size_t i = 0; i < keys.size(); ++i) CHECK(values[i] == static_cast<float>(keys[i]));
  }
}

TEST_CASE("sampling scheme names parse", "[sampling]") {
  CHECK(*ParseSampleScheme("prefetch") == SampleScheme::kPrefetch);
  CHECK(*ParseSampleScheme("pool") == SampleScheme::kPool);
  CHECK_FALSE(ParseSampleScheme("magic").ok());
}

}  // namespace
}  // namespace augur

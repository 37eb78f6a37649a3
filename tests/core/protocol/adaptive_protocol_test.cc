// Relocation and replication over the loopback runtime, for every policy:
// the sum invariant under relocation storms and random message orders,
// read-your-writes on non-replicated keys, replica staleness, Set on replicas.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <vector>

#include "core/base/rng.h"
#include "core/policy/policy.h"
#include "tests/core/protocol/cluster_scenarios.h"

namespace augur {
namespace {

using testing::CheckSums;
using testing::JitteryCluster;

LoopbackOptions Storm(uint32_t nodes, uint32_t workers, uint64_t seed, const std::string& policy,
                      std::vector<Key> hot = {}, double significance = 0) {
  LoopbackOptions o = JitteryCluster(nodes, workers, seed);
  o.node.policy = *MakePolicy(policy, std::move(hot));
  o.node.sync_period_seconds = 20e-6;  // several sync rounds per run
  o.node.sync_significance = significance;
  return o;
}

// A key whose main copy starts at node 0 (with replicate-all, every other
// node holds a replica).
Key KeyHomedAtNode0(LoopbackCluster& cluster) {
  Key key = 0;
  while (cluster.node(0).HomeOf(key) != 0) ++key;
  return key;
}

// Every worker signals intent for its next batches over a tiny shared key set
// (so keys are wanted by many nodes at once), pushes integer updates without
// waiting and sometimes pulls; at the end every key must hold the exact sum.
void RunStorm(uint32_t nodes, uint32_t workers, uint64_t seed, const std::string& policy,
              double significance = 0) {
  constexpr Clock kClocks = 16;
  constexpr uint64_t kKeys = 12;
  auto batch = [&](NodeId n, WorkerId w, Clock c, std::vector<Key>* keys, std::vector<float>* up) {
    Rng rng(DeriveSeed(seed, n * 16 + w, static_cast<uint64_t>(c)));
    keys->resize(4);
    up->resize(8);
    for (int i = 0; i < 4; ++i) {
      (*keys)[i] = Mix64(rng.Below(kKeys));
      (*up)[2 * i] = (*up)[2 * i + 1] = static_cast<float>(1 + rng.Below(4));
    }
  };
  std::map<Key, double> expected;
  std::vector<Key> keys;
  std::vector<float> up;
  for (NodeId n = 0; n < nodes; ++n)
    for (WorkerId w = 0; w < workers; ++w)
      for (Clock c = 0; c < kClocks; ++c) {
        batch(n, w, c, &keys, &up);
        for (int i = 0; i < 4; ++i) expected[keys[i]] += up[2 * i];
      }
  std::vector<Key> hot{Mix64(0), Mix64(1)};
  LoopbackCluster cluster(Storm(nodes, workers, seed, policy, hot, significance));
  uint64_t checked = 0;
  REQUIRE(cluster
              .Run([&](Worker& w) {
                std::vector<Key> k, ahead;
                std::vector<float> u, scratch;
                for (Clock c = 0; c < kClocks; ++c) {
                  if (c + 1 < kClocks) {
                    batch(w.node_id(), w.id(), c + 1, &ahead, &u);
                    w.Intent(ahead, c + 1, c + 2);
                  }
                  batch(w.node_id(), w.id(), c, &k, &u);
                  w.Push(k, u);
                  if (c % 3 == 0) {
                    scratch.resize(8);
                    w.Wait(w.Pull(k, scratch));
                  }
                  w.Compute(3e-6);
                  w.AdvanceClock();
                }
                w.Barrier();
                if (w.id() == 0) w.WaitSync();
                w.Barrier();
                if (w.id() == 0) w.WaitSync();
                if (w.node_id() == nodes - 1 && w.id() == 0) checked += CheckSums(w, expected);
                w.Barrier();
              })
              .ok());
  REQUIRE(checked == expected.size());
  if (policy == "relocate" || policy == "adaptive") {
    uint64_t relocations = 0;
    for (NodeId n = 0; n < nodes; ++n)
      relocations += cluster.node(n).Metrics()[NodeCounter::kRelocations];
    CHECK(relocations > 0);  // the storm really moved keys
  }
}

TEST_CASE("sum invariant under relocation storms, every policy, many message orders",
          "[protocol][invariant][storm]") {
  const std::string policy = GENERATE(from_range(PolicyNames()));
  const uint32_t nodes = GENERATE(2u, 3u, 5u);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    INFO("policy " << policy << " nodes " << nodes << " seed " << seed);
    RunStorm(nodes, 2, seed, policy);
  }
}

TEST_CASE("sum invariant under relocation storms with the significance filter",
          "[protocol][invariant][storm]") {
  const std::string policy = GENERATE(std::string("replicate-all"), std::string("adaptive"));
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("policy " << policy << " seed " << seed);
    RunStorm(3, 2, seed, policy, /*significance=*/0.5);  // most rounds defer most replicas
  }
}

TEST_CASE("read-your-writes on relocating keys", "[protocol]") {
  const std::string policy = GENERATE(std::string("relocate"), std::string("adaptive"));
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    INFO("policy " << policy << " seed " << seed);
    LoopbackCluster cluster(Storm(4, 2, seed, policy));
    REQUIRE(cluster
                .Run([seed](Worker& w) {
                  Rng rng(DeriveSeed(seed, w.node_id(), w.id()));
                  std::map<Key, float> model;
                  const Key base = 1000 * (w.node_id() * 8 + w.id());
                  for (Clock c = 0; c < 30; ++c) {
                    const Key k = Mix64(base + rng.Below(4));
                    const std::vector<Key> keys{k};
                    w.Intent(std::vector<Key>{Mix64(base + rng.Below(4))}, c + 1,
                             c + 3);  // keys move around
                    const float x = static_cast<float>(rng.Below(50));
                    const std::vector<float> v{x, x};
                    if (rng.Below(2) == 0) {
                      w.Wait(w.Set(keys, v));
                      model[k] = x;
                    } else {
                      w.Wait(w.Push(keys, v));
                      model[k] += x;
                    }
                    std::vector<float> out(2);
                    w.Wait(w.Pull(keys, out));
                    REQUIRE(out[0] == model[k]);
                    w.Compute(2e-6);
                    w.AdvanceClock();
                  }
                  w.Barrier();
                })
                .ok());
  }
}

TEST_CASE("signals given together are acted on together: fewer frames than one by one",
          "[protocol]") {
  // Node 0's worker wants 64 keys homed at node 1, each for its own window:
  // as 64 Intent calls each request leaves on its own; as one Intents call
  // the requests to node 1 leave together. Both count 64 signals and keys.
  const auto frames = [](bool together) {
    LoopbackOptions o = JitteryCluster(2, 1, 3);
    o.network.jitter_seconds = 0;
    o.node.policy = *MakePolicy("relocate");
    LoopbackCluster cluster(o);
    std::vector<Key> keys;
    for (Key k = 0; keys.size() < 64; ++k)
      if (cluster.node(0).HomeOf(k) == 1) keys.push_back(k);
    MetricsSnapshot at0;
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  if (w.node_id() == 0) {
                    std::vector<IntentSignal> signals;
                    for (size_t i = 0; i < keys.size(); ++i)
                      signals.push_back(IntentSignal{std::span<const Key>(&keys[i], 1), 0,
                                                     static_cast<Clock>(2 + i)});
                    if (together) {
                      w.Intents(signals);
                    } else {
                      for (const IntentSignal& s : signals) w.Intent(s.keys, s.start, s.end);
                    }
                    w.Compute(1e-3);  // the relocations complete
                  }
                  REQUIRE(w.Barrier().ok());
                  if (w.node_id() == 0) at0 = w.NodeMetrics();
                })
                .ok());
    CHECK(at0[NodeCounter::kIntents] == 64);
    CHECK(at0[NodeCounter::kIntentKeys] == 64);
    CHECK(at0[NodeCounter::kRelocations] + at0[NodeCounter::kLocalizeRequests] > 0);
    return at0[NodeCounter::kMessagesSent];
  };
  const uint64_t together = frames(true), apart = frames(false);
  INFO("frames sent by node 0: together " << together << ", one by one " << apart);
  CHECK(together < apart);
}

TEST_CASE("a replica lags its main copy by at most a sync period plus a round trip",
          "[protocol][replication]") {
  LoopbackOptions o = JitteryCluster(3, 1, 9);
  o.network.jitter_seconds = 0;
  o.network.latency_seconds = 5e-6;
  o.node.policy = *MakePolicy("replicate-all");
  o.node.sync_period_seconds = 50e-6;
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);      // main copy at node 0
  std::vector<std::pair<double, float>> pushes;  // (time applied at main, total)
  std::vector<std::pair<double, float>> reads;   // (time read at replica, value)
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                std::vector<float> v(2, 1.0f);
                for (int i = 0; i < 200; ++i) {
                  if (w.node_id() == 0) {
                    w.Wait(w.Push(keys, v));  // local main copy: applied now
                    pushes.emplace_back(w.Now(), static_cast<float>(i + 1));
                  } else if (w.node_id() == 2) {
                    w.Wait(w.Pull(keys, v));
                    if (i > 10) reads.emplace_back(w.Now(), v[0]);
                  }
                  w.Compute(7e-6);
                }
                w.Barrier();
              })
              .ok());
  REQUIRE(reads.size() > 100);
  const double bound = 50e-6 + 2 * 6e-6;  // period + round trip (latency + wire time)
  for (const auto& [t, value] : reads) {
    float must_see = 0;
    for (const auto& [pt, total] : pushes)
      if (pt <= t - bound) must_see = total;
    INFO("read at " << t << " saw " << value);
    CHECK(value >= must_see);
  }
  // Node 2 only reads: its replica never has a delta, so it only polls.
  CHECK(cluster.node(2).Metrics()[NodeCounter::kReplicaSyncs] == 0);
  CHECK(cluster.node(2).Metrics()[NodeCounter::kReplicaPolls] > 0);
}

TEST_CASE("an idle replica is polled without a delta and refreshed only when its main copy changed",
          "[protocol][replication]") {
  LoopbackOptions o = Storm(3, 1, 4, "replicate-all");
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);  // main copy at node 0
  constexpr int kPushes = 10;
  std::vector<float> before(3), after(3);
  MetricsSnapshot idle_start, idle_end;  // node 0 (the owner), and the holders' polls
  uint64_t polls_start = 0, polls_end = 0;
  auto polls = [&] {
    return cluster.node(1).Metrics()[NodeCounter::kReplicaPolls] +
           cluster.node(2).Metrics()[NodeCounter::kReplicaPolls];
  };
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                std::vector<float> v(2, 1.0f);
                w.Wait(w.Pull(keys, v));
                before[w.node_id()] = v[0];
                w.Barrier();
                std::fill(v.begin(), v.end(), 1.0f);
                for (int i = 0; i < kPushes; ++i) {  // node 1 pushes through its replica
                  if (w.node_id() == 1) w.Wait(w.Push(keys, v));
                  w.Compute(10e-6);
                }
                w.WaitSync();
                w.Barrier();
                w.WaitSync();  // every holder has fetched the final row
                w.Barrier();
                if (w.node_id() == 0) {
                  idle_start = cluster.node(0).Metrics();
                  polls_start = polls();
                }
                for (int i = 0; i < 100; ++i) w.Compute(10e-6);  // 1 ms: tens of idle rounds
                w.Barrier();
                if (w.node_id() == 0) {
                  idle_end = cluster.node(0).Metrics();
                  polls_end = polls();
                }
                w.Wait(w.Pull(keys, v));
                after[w.node_id()] = v[0];
              })
              .ok());
  for (NodeId n = 0; n < 3; ++n) CHECK(after[n] - before[n] == static_cast<float>(kPushes));
  CHECK(polls_end - polls_start >= 20);  // the holders kept polling ...
  // ... and got no row
  CHECK(idle_end[NodeCounter::kReplicaRefreshes] == idle_start[NodeCounter::kReplicaRefreshes]);
  CHECK(idle_end[NodeCounter::kReplicaSyncs] == idle_start[NodeCounter::kReplicaSyncs]);
  CHECK(cluster.node(1).Metrics()[NodeCounter::kReplicaSyncs] > 0);
}

// A holder's own pushes since its last flush must survive the refresh that
// answers that flush, whatever the optimizer: node 1 alone writes through its
// replica, so every read after its own push must show all of its pushes.
TEST_CASE("a refreshed replica keeps its own pending pushes, for sum and sgd",
          "[protocol][replication]") {
  for (OptimizerKind kind : {OptimizerKind::kSum, OptimizerKind::kSgd}) {
    LoopbackOptions o = Storm(2, 1, 6, "replicate-all");
    o.node.optimizer.kind = kind;
    o.node.optimizer.learning_rate = 0.5f;
    LoopbackCluster cluster(o);
    const Key key = KeyHomedAtNode0(cluster);  // main copy at node 0, replica at node 1
    // One push moves the value by +1 (sum: +1; sgd: -0.5 * -2).
    const float step = kind == OptimizerKind::kSum ? 1.0f : -2.0f;
    constexpr int kPushes = 200;
    std::vector<float> seen;
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  const std::vector<Key> keys{key};
                  std::vector<float> v(2, step);
                  if (w.node_id() == 1) {
                    for (int i = 0; i < kPushes; ++i) {
                      std::fill(v.begin(), v.end(), step);
                      w.Wait(w.Push(keys, v));
                      w.Wait(w.Pull(keys, v));
                      seen.push_back(v[0]);
                      w.Compute(7e-6);
                    }
                  }
                  w.Barrier();
                })
                .ok());
    REQUIRE(seen.size() == kPushes);
    uint64_t refreshes = cluster.node(0).Metrics()[NodeCounter::kReplicaRefreshes];
    CHECK(refreshes > 10);  // the pushes really raced refreshes
    for (int i = 0; i < kPushes; ++i) {
      INFO(OptimizerKindName(kind) << " read " << i << " saw " << seen[i]);
      REQUIRE(seen[i] == static_cast<float>(i + 1));
    }
  }
}

// With AdaGrad, a replica's flush must grow its main copy's accumulator by
// the sum of the squared gradients pushed to the replica, as separate steps
// would, not by the square of their sum: that inflates a hot row's
// accumulator by the number of pushes a flush sums and slows the row for
// good. Only node 1 pushes, so the main copy's accumulator is known exactly,
// and its value must have moved at least as far as one step of all pushes
// under that accumulator, at most as far as the sequential steps.
TEST_CASE("a replica's AdaGrad flush grows the accumulator as separate steps would",
          "[protocol][replication]") {
  LoopbackOptions o = Storm(2, 1, 9, "replicate-all");
  o.node.optimizer.kind = OptimizerKind::kAdaGrad;
  o.node.optimizer.learning_rate = 0.5f;
  o.node.optimizer.initial_accumulator = 1.0f;
  o.node.sync_period_seconds = 1e-3;  // several pushes per flush
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);
  constexpr int kPushes = 40;
  const std::vector<float> g{0.75f, -0.5f};
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                std::vector<float> v(2);
                w.Wait(w.Pull(keys, v));  // both nodes hold the key from here on
                w.Barrier();
                if (w.node_id() == 1)
                  for (int i = 0; i < kPushes; ++i) w.Wait(w.Push(keys, g));
                w.WaitSync();
                w.Barrier();
              })
              .ok());
  CHECK(cluster.node(1).Metrics()[NodeCounter::kReplicaSyncs] >= 1);
  std::vector<float> row(4);
  REQUIRE(cluster.node(0).store().ReadRow(key, row.data()));
  for (int d = 0; d < 2; ++d) {
    INFO("dimension " << d);
    const float acc = 1.0f + kPushes * g[d] * g[d];
    CHECK(row[2 + d] == Approx(acc).epsilon(1e-4));
    float sequential = 0;
    for (int i = 1; i <= kPushes; ++i)
      sequential += 0.5f * std::fabs(g[d]) / std::sqrt(1.0f + i * g[d] * g[d]);
    const float one_step = 0.5f * kPushes * std::fabs(g[d]) / std::sqrt(acc);
    CHECK(std::fabs(row[d]) >= one_step * (1 - 1e-4f));
    CHECK(std::fabs(row[d]) <= sequential * (1 + 1e-4f));
  }
}

// A push of updates summed per key (Worker::PushDeltas: a batch's gradients
// of one row) carries their summed squares, and the main copy's AdaGrad
// accumulator grows by them, as the separate steps would grow it, whether the
// main copy is remote (classic: node 1 pushes to node 0) or local; a plain
// Push of one update grows it by that update's square.
TEST_CASE("a pushed delta grows the AdaGrad accumulator by its summed squares",
          "[protocol][optimizer]") {
  LoopbackOptions o = JitteryCluster(2, 1, 4);
  o.node.policy = *MakePolicy("classic", {});
  o.node.optimizer.kind = OptimizerKind::kAdaGrad;
  o.node.optimizer.learning_rate = 0.5f;
  o.node.optimizer.initial_accumulator = 1.0f;
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);
  Key plain = key + 1;
  while (cluster.node(0).HomeOf(plain) != 0) ++plain;
  // Three examples' gradients of the key, summed: the delta, then its squares.
  const float g[3][2] = {{0.75f, -0.5f}, {0.25f, -1.0f}, {1.0f, -0.5f}};
  std::vector<float> delta(4, 0.0f);
  for (const auto& e : g)
    for (int d = 0; d < 2; ++d) {
      delta[d] += e[d];
      delta[2 + d] += e[d] * e[d];
    }
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> one{key}, other{plain};
                w.Wait(w.PushDeltas(one, delta));  // node 1: remote; node 0: local
                if (w.node_id() == 0) w.Wait(w.Push(other, std::vector<float>{2.0f, -1.0f}));
                w.Barrier();
              })
              .ok());
  std::vector<float> row(4);
  REQUIRE(cluster.node(0).store().ReadRow(key, row.data()));
  for (int d = 0; d < 2; ++d) {
    INFO("dimension " << d);
    CHECK(row[2 + d] == Approx(1.0f + 2 * delta[2 + d]).epsilon(1e-5));  // both nodes pushed
    // The summed square would be (sum g)^2, larger here in both dimensions.
    CHECK(delta[d] * delta[d] > delta[2 + d]);
  }
  REQUIRE(cluster.node(0).store().ReadRow(plain, row.data()));
  CHECK(row[2] == Approx(5.0f));  // 1 + 2^2
  CHECK(row[3] == Approx(2.0f));  // 1 + 1^2
  CHECK(row[0] == Approx(-0.5f * 2.0f / std::sqrt(5.0f)));
}

// Two flushes of one replica can be in flight at once: a timer round's and
// another worker's WaitSync round. The answer to the older one must not hide
// the newer one's delta from the replica: worker 0 of node 1 writes alone
// and must read all of its own pushes while worker 1 keeps calling WaitSync.
TEST_CASE("a replica's view keeps its flushed pushes while rounds overlap",
          "[protocol][replication]") {
  LoopbackOptions o = Storm(2, 2, 11, "replicate-all");
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);  // main copy at node 0, replica at node 1
  constexpr int kPushes = 300;
  std::vector<float> seen;
  std::atomic<bool> writing{true};
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                std::vector<float> v(2, 1.0f);
                if (w.node_id() == 1 && w.id() == 0) {
                  for (int i = 0; i < kPushes; ++i) {
                    std::fill(v.begin(), v.end(), 1.0f);
                    w.Wait(w.Push(keys, v));
                    w.Wait(w.Pull(keys, v));
                    seen.push_back(v[0]);
                    w.Compute(5e-6);
                  }
                  writing = false;
                } else if (w.node_id() == 1) {
                  while (writing) {
                    w.WaitSync();
                    w.Compute(3e-6);
                  }
                }
                w.Barrier();
              })
              .ok());
  REQUIRE(seen.size() == kPushes);
  for (int i = 0; i < kPushes; ++i) {
    INFO("read " << i << " saw " << seen[i]);
    REQUIRE(seen[i] == static_cast<float>(i + 1));
  }
}

// Sync versions compare in 30-bit serial arithmetic; a holder the owner has
// not heard from yet must have its first delta applied wherever the holder's
// flush sequence stands (here: half-way round, "older" than 0).
TEST_CASE("a new holder's first delta applies wherever its flush sequence starts",
          "[protocol][replication]") {
  for (uint32_t first : {0u, (kSyncVersionMask + 1) / 2 + 7, kSyncVersionMask - 2}) {
    LoopbackOptions o = Storm(3, 1, 8, "replicate-all");
    o.node.first_sync_version = first;
    LoopbackCluster cluster(o);
    const Key key = KeyHomedAtNode0(cluster);  // main copy at node 0
    constexpr int kPushes = 10;
    std::vector<float> final(3);
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  const std::vector<Key> keys{key};
                  std::vector<float> v(2, 1.0f);
                  for (int i = 0; i < kPushes; ++i) {
                    if (w.node_id() != 0) w.Wait(w.Push(keys, v));  // through replicas
                    w.Compute(10e-6);
                  }
                  w.WaitSync();
                  w.Barrier();
                  w.WaitSync();
                  w.Barrier();
                  w.Wait(w.Pull(keys, v));
                  final[w.node_id()] = v[0];
                })
                .ok());
    INFO("flush sequence starting at " << first);
    CHECK(cluster.node(1).Metrics()[NodeCounter::kReplicaSyncs] > 0);
    for (NodeId n = 0; n < 3; ++n) CHECK(final[n] == 2.0f * kPushes);
  }
}

// Node 0 sets `keys` (main copies at node 0) to a large row, 1000 per float,
// and every node's replica holds it before the test goes on.
void StartFromLargeRows(Worker& w, const std::vector<Key>& keys) {
  if (w.node_id() == 0) w.Wait(w.Set(keys, std::vector<float>(2 * keys.size(), 1000.0f)));
  w.Barrier();
  w.WaitSync();
  w.Barrier();
}

// The significance filter (NodeOptions::sync_significance): node 1 pushes
// through its replica of a key whose main copy (node 0) is large.
TEST_CASE("the significance filter holds back small replica changes, never a large one",
          "[protocol][replication]") {
  LoopbackOptions o = Storm(2, 1, 12, "replicate-all", {}, /*significance=*/0.05);
  o.node.sync_max_deferred = 100000;  // only the filter decides
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);
  std::vector<float> seen_small, seen_large, final(2);
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                StartFromLargeRows(w, keys);
                std::vector<float> v(2, 1.0f);
                for (int i = 0; i < 20; ++i) {  // 20 in all: 2% of the row, below 5%
                  if (w.node_id() == 1) w.Wait(w.Push(keys, v));
                  w.Compute(10e-6);  // 10 sync periods in all
                }
                w.Barrier();
                if (w.node_id() == 0) seen_small.push_back((w.Wait(w.Pull(keys, v)), v[0]));
                w.Barrier();
                std::fill(v.begin(), v.end(), 500.0f);  // a large change
                if (w.node_id() == 1) w.Wait(w.Push(keys, v));
                w.Compute(200e-6);  // 10 sync periods: many times period plus round trip
                w.Barrier();
                if (w.node_id() == 0) seen_large.push_back((w.Wait(w.Pull(keys, v)), v[0]));
                w.Barrier();
                w.WaitSync();
                w.Barrier();
                w.Wait(w.Pull(keys, v));
                final[w.node_id()] = v[0];
              })
              .ok());
  REQUIRE(seen_small.size() == 1);
  REQUIRE(seen_large.size() == 1);
  CHECK(seen_small[0] == 1000.0f);  // held back at node 1
  CHECK(seen_large[0] == 1520.0f);  // flushed with the large one, small ones included
  for (float f : final) CHECK(f == 1520.0f);
  CHECK(cluster.node(1).Metrics()[NodeCounter::kReplicaDeferrals] > 0);
}

TEST_CASE("the significance filter defers a replica at most sync_max_deferred rounds in a row",
          "[protocol][replication]") {
  constexpr uint32_t kMaxDeferred = 3;
  LoopbackOptions o = Storm(2, 1, 13, "replicate-all", {}, /*significance=*/0.5);
  o.node.sync_max_deferred = kMaxDeferred;
  LoopbackCluster cluster(o);
  const Key key = KeyHomedAtNode0(cluster);
  MetricsSnapshot start, end;
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                StartFromLargeRows(w, keys);
                if (w.node_id() == 1) start = cluster.node(1).Metrics();
                std::vector<float> v(2, 1.0f);
                for (int i = 0; i < 100; ++i) {  // 100 in all: 10% of the row, below 50%
                  if (w.node_id() == 1) w.Wait(w.Push(keys, v));
                  w.Compute(10e-6);  // 50 sync periods in all
                }
                if (w.node_id() == 1) end = cluster.node(1).Metrics();
                w.Barrier();
              })
              .ok());
  const uint64_t deferred =
      end[NodeCounter::kReplicaDeferrals] - start[NodeCounter::kReplicaDeferrals];
  const uint64_t flushed = (end[NodeCounter::kReplicaSyncs] - start[NodeCounter::kReplicaSyncs]) +
                           (end[NodeCounter::kReplicaPolls] - start[NodeCounter::kReplicaPolls]);
  INFO("deferred " << deferred << " flushed " << flushed);
  CHECK(deferred >= 20);                            // the filter was at work ...
  CHECK(flushed >= 5);                              // ... but not alone:
  CHECK(deferred <= kMaxDeferred * (flushed + 1));  // at most 3 skips per flush
}

// The round budget (NodeOptions::sync_round_keys): node 1 holds 17 replicas
// of keys whose main copies are at node 0 and changes one of them much more
// than the others; timer rounds flush only 4 replicas each.
TEST_CASE("a round budget flushes the most-changed replicas first and loses no push",
          "[protocol][replication]") {
  LoopbackOptions o = Storm(2, 1, 14, "replicate-all");
  o.node.sync_round_keys = 4;
  o.node.sync_max_deferred = 100000;  // only the budget decides
  LoopbackCluster cluster(o);
  std::vector<Key> keys;  // keys[0] the busy one, then 16 others
  for (Key k = 0; keys.size() < 17; ++k)
    if (cluster.node(0).HomeOf(k) == 0) keys.push_back(k);
  constexpr int kRounds = 50;
  float busy_seen = 0;
  std::vector<float> final(keys.size() * 2);
  REQUIRE(cluster
              .Run([&](Worker& w) {
                std::vector<float> v(2);
                for (int i = 0; i < kRounds; ++i) {
                  if (w.node_id() == 1) {
                    const std::vector<Key> busy{keys[0]}, other{keys[1 + i % 16]};
                    std::fill(v.begin(), v.end(), 100.0f);
                    w.Wait(w.Push(busy, v));
                    std::fill(v.begin(), v.end(), 1.0f);
                    w.Wait(w.Push(other, v));
                  }
                  w.Compute(10e-6);  // 25 sync periods in all
                }
                w.Compute(100e-6);  // 5 periods: the busy key's last flush arrives
                w.Barrier();
                if (w.node_id() == 0) {
                  const std::vector<Key> busy{keys[0]};
                  w.Wait(w.Pull(busy, v));
                  busy_seen = v[0];
                }
                w.Barrier();
                w.WaitSync();
                w.Barrier();
                w.WaitSync();
                if (w.node_id() == 0) w.Wait(w.Pull(keys, final));
                w.Barrier();
              })
              .ok());
  CHECK(busy_seen == 100.0f * kRounds);  // never held back
  CHECK(cluster.node(1).Metrics()[NodeCounter::kReplicaDeferrals] > 0);
  CHECK(final[0] == 100.0f * kRounds);
  for (size_t k = 1; k < keys.size(); ++k) {
    INFO("key " << k);
    const int pushes = kRounds / 16 + (static_cast<int>(k) - 1 < kRounds % 16 ? 1 : 0);
    CHECK(final[2 * k] == static_cast<float>(pushes));
  }
}

TEST_CASE("Set on a replicated key reaches the main copy and every replica", "[protocol]") {
  LoopbackOptions o = JitteryCluster(3, 1, 2);
  o.node.policy = *MakePolicy("replicate-all");
  LoopbackCluster cluster(o);
  const Key key = 77;
  REQUIRE(cluster
              .Run([&](Worker& w) {
                const std::vector<Key> keys{key};
                std::vector<float> v(2, 1.0f);
                w.Wait(w.Push(keys, v));  // every node now holds a replica (or the main copy)
                w.WaitSync();             // flushed pushes are ordered before the Set
                w.Barrier();
                if (w.node_id() == (cluster.node(0).HomeOf(key) + 1) % 3) {
                  const std::vector<float> set{42.0f, -42.0f};
                  w.Wait(w.Set(keys, set));
                }
                w.Barrier();
                w.WaitSync();
                w.Barrier();
                w.WaitSync();
                w.Wait(w.Pull(keys, v));
                CHECK(v[0] == 42.0f);
                CHECK(v[1] == -42.0f);
                w.Barrier();
              })
              .ok());
  uint64_t replicas = 0;
  for (NodeId n = 0; n < 3; ++n)
    replicas += cluster.node(n).Metrics()[NodeCounter::kReplicasCreated];
  CHECK(replicas == 2);
}

}  // namespace
}  // namespace augur

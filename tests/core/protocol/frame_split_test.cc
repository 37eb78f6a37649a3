// Messages larger than a frame (core/protocol/message_split.h): split by
// keys, every part under the limit, and the protocol stays exact when a
// logical sync round, refresh, hand-over or pull arrives in several frames.
// The loopback cluster's frame limit stops the test on any larger frame.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/policy/policy.h"
#include "core/protocol/message_split.h"
#include "tests/core/protocol/cluster_scenarios.h"

namespace augur {
namespace {

using testing::CheckSums;
using testing::JitteryCluster;

constexpr size_t kFrameLimit = 1024;  // the smallest --max-frame-bytes

TEST_CASE("SplitByKeys keeps every key whole, in order, each part under the limit",
          "[protocol][split]") {
  Message m{MessageType::kSyncRequest, 1, 1, 42, kViaHome, {}, {}, {}};
  std::vector<uint32_t> lengths;
  for (uint32_t i = 0; i < 300; ++i) {
    m.keys.push_back(Mix64(i));
    const bool poll = i % 3 == 0;  // a poll carries no values
    m.slots.push_back(i | (poll ? kNoDeltaBit : 0));
    lengths.push_back(poll ? 0 : 1 + i % 5);
    for (uint32_t j = 0; j < lengths.back(); ++j) m.values.push_back(static_cast<float>(i));
  }
  REQUIRE(EncodedSize(m) > 4 * kFrameLimit);
  const std::vector<Message> parts =
      SplitByKeys(m, kFrameLimit, [&](size_t i) { return lengths[i]; });
  CHECK(parts.size() > 4);
  Message joined{m.type, m.src, m.origin, m.op_id, m.aux, {}, {}, {}};
  for (const Message& p : parts) {
    CHECK(EncodedSize(p) <= kFrameLimit);
    CHECK(!p.keys.empty());
    CHECK((p.type == m.type && p.op_id == m.op_id && p.aux == m.aux && p.origin == m.origin));
    joined.keys.insert(joined.keys.end(), p.keys.begin(), p.keys.end());
    joined.slots.insert(joined.slots.end(), p.slots.begin(), p.slots.end());
    joined.values.insert(joined.values.end(), p.values.begin(), p.values.end());
  }
  CHECK(joined == m);
}

TEST_CASE("a sync response's acknowledged count travels in one part only", "[protocol][split]") {
  Message m{MessageType::kSyncResponse, 0, 0, 9, /*aux=*/17, {}, {}, {}};
  for (uint32_t i = 0; i < 100; ++i) {
    m.keys.push_back(i);
    m.values.insert(m.values.end(), 4, 1.0f);
  }
  const std::vector<Message> parts = SplitByKeys(m, kFrameLimit, [](size_t) { return 4u; });
  REQUIRE(parts.size() > 1);
  uint64_t aux = 0, keys = 0;
  for (const Message& p : parts) {
    aux += p.aux;
    keys += p.keys.size();
  }
  CHECK(aux == 17);
  CHECK(keys == 100);
  CHECK(parts[0].aux == 17);
}

TEST_CASE("a key larger than a frame travels alone (for the transport to refuse)",
          "[protocol][split]") {
  Message m{MessageType::kHandover, 0, 0, 0, 0, {1, 2, 3}, {1, 1, 1}, {}};
  m.values.assign(10 + 400 + 10, 0.5f);
  const std::vector<uint32_t> lengths{10, 400, 10};
  const std::vector<Message> parts =
      SplitByKeys(m, kFrameLimit, [&](size_t i) { return lengths[i]; });
  REQUIRE(parts.size() == 3);
  CHECK(parts[1].keys == std::vector<Key>{2});
  CHECK(EncodedSize(parts[1]) > kFrameLimit);
}

// Node 1 pushes to every one of kKeys keys (replicate-all: it holds a replica
// of each key homed elsewhere, granted in one localize answer), then one
// WaitSync round flushes them all: grant, round and answers each need
// several frames. Node 0 then finds every sum exact.
TEST_CASE("a sync round larger than the frame limit arrives whole", "[protocol][split]") {
  constexpr uint64_t kKeys = 300;
  const uint64_t seed = GENERATE(1u, 2u, 3u);
  INFO("seed " << seed);
  LoopbackOptions o = JitteryCluster(2, 1, seed);
  o.node.policy = *MakePolicy("replicate-all", {});
  o.node.sync_period_seconds = 1.0;  // no timer round: the WaitSync round is the only one
  o.max_frame_bytes = kFrameLimit;
  std::map<Key, double> expected;
  std::vector<Key> keys;
  std::vector<float> up;
  for (uint64_t i = 0; i < kKeys; ++i) {
    keys.push_back(Mix64(i));
    const float u = static_cast<float>(1 + i % 7);
    up.insert(up.end(), {u, u});
    expected[keys.back()] = 2 * u;  // pushed twice
  }
  LoopbackCluster cluster(o);
  uint64_t checked = 0;
  REQUIRE(cluster
              .Run([&](Worker& w) {
                if (w.node_id() == 1) {
                  w.Wait(w.Push(keys, up));  // fetches the replicas on first touch
                  w.Wait(w.Push(keys, up));  // into the replicas
                  w.WaitSync();
                }
                w.Barrier();
                if (w.node_id() == 0) checked = CheckSums(w, expected);
                w.Barrier();
              })
              .ok());
  CHECK(checked == kKeys);
  const MetricsSnapshot m1 = cluster.node(1).Metrics();
  // One round flushed more keys than one frame holds (a key is at least 12
  // bytes of a sync request: its id and slot).
  CHECK(m1[NodeCounter::kReplicaSyncs] * 12 > kFrameLimit);
  CHECK(m1[NodeCounter::kBytesSent] / m1[NodeCounter::kMessagesSent] <= kFrameLimit);
}

// Big batches under every policy: pulls, pushes, intents, relocations and
// timer rounds over many keys at once, each message split as it needs.
TEST_CASE("the sum invariant holds with every large message split", "[protocol][split]") {
  const std::string policy = GENERATE(from_range(PolicyNames()));
  constexpr uint64_t kKeys = 400;
  constexpr Clock kClocks = 6;
  constexpr int kBatch = 120;  // 120 keys: a pull answer is ~2.4 KB
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    INFO("policy " << policy << " seed " << seed);
    auto batch = [&](NodeId n, WorkerId w, Clock c, std::vector<Key>* k, std::vector<float>* u) {
      Rng rng(DeriveSeed(seed, n * 16 + w, static_cast<uint64_t>(c)));
      k->resize(kBatch);
      u->resize(2 * kBatch);
      for (int i = 0; i < kBatch; ++i) {
        (*k)[i] = Mix64(rng.Below(kKeys));
        (*u)[2 * i] = (*u)[2 * i + 1] = static_cast<float>(1 + rng.Below(4));
      }
    };
    std::map<Key, double> expected;
    std::vector<Key> keys;
    std::vector<float> up;
    for (NodeId n = 0; n < 3; ++n)
      for (WorkerId w = 0; w < 2; ++w)
        for (Clock c = 0; c < kClocks; ++c) {
          batch(n, w, c, &keys, &up);
          for (int i = 0; i < kBatch; ++i) expected[keys[i]] += up[2 * i];
        }
    LoopbackOptions o = JitteryCluster(3, 2, seed);
    o.node.policy = *MakePolicy(policy, {Mix64(0), Mix64(1)});
    o.node.sync_period_seconds = 20e-6;
    o.max_frame_bytes = kFrameLimit;
    LoopbackCluster cluster(o);
    uint64_t checked = 0;
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  std::vector<Key> k, ahead;
                  std::vector<float> u, scratch(2 * kBatch);
                  for (Clock c = 0; c < kClocks; ++c) {
                    if (c + 1 < kClocks) {
                      batch(w.node_id(), w.id(), c + 1, &ahead, &u);
                      w.Intent(ahead, c + 1, c + 2);
                    }
                    batch(w.node_id(), w.id(), c, &k, &u);
                    w.Push(k, u);
                    if (c % 2 == 0) w.Wait(w.Pull(k, scratch));
                    w.Compute(3e-6);
                    w.AdvanceClock();
                  }
                  w.Barrier();
                  if (w.id() == 0) w.WaitSync();
                  w.Barrier();
                  if (w.id() == 0) w.WaitSync();
                  if (w.node_id() == 2 && w.id() == 0) checked += CheckSums(w, expected);
                  w.Barrier();
                })
                .ok());
    CHECK(checked == expected.size());
  }
}

}  // namespace
}  // namespace augur

// Classic technique over the loopback runtime: API semantics, the sum
// invariant over many message orders, read-your-writes, per-key lengths.
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/protocol/home.h"
#include "tests/core/protocol/cluster_scenarios.h"

namespace augur {
namespace {

using testing::CheckSums;
using testing::JitteryCluster;

TEST_CASE("pull returns the initializer's value and push, set and wait behave", "[protocol]") {
  LoopbackOptions o = JitteryCluster(3, 2, 1);
  o.node.init = [](Key k, std::span<float> v) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(k % 100) + 0.5f * i;
  };
  LoopbackCluster cluster(o);
  REQUIRE(cluster
              .Run([](Worker& w) {
                if (w.node_id() != 1 || w.id() != 0) {
                  w.Barrier();
                  return;
                }
                const std::vector<Key> keys{3, 1004, 77777777777ull, 3};
                std::vector<float> out(8);
                Ticket t = w.Pull(keys, out);
                w.Wait(t);
                CHECK(w.IsDone(t));
                CHECK(out == std::vector<float>{3, 3.5f, 4, 4.5f, 77, 77.5f, 3, 3.5f});
                const std::vector<float> up{1, 1, 1, 1, 1, 1, 1, 1};
                w.Wait(w.Push(keys, up));  // key 3 is pushed twice in one batch
                const std::vector<float> set{-1, -2};
                w.Wait(w.Set(std::vector<Key>{1004}, set));
                w.Wait(w.Pull(keys, out));
                CHECK(out == std::vector<float>{5, 5.5f, -1, -2, 78, 78.5f, 5, 5.5f});
                CHECK(w.IsDone(Ticket{}));
                w.Barrier();
              })
              .ok());
}

TEST_CASE("values have per-key-range lengths across nodes", "[protocol]") {
  Result<ValueLayout> layout = ValueLayout::Create(3, {{100, 200, 1}, {1000, 2000, 7}});
  REQUIRE(layout.ok());
  LoopbackCluster cluster(JitteryCluster(4, 1, 5, *layout));
  REQUIRE(cluster
              .Run([](Worker& w) {
                std::vector<Key> keys;
                for (Key k = 0; k < 40; ++k) keys.push_back(k * 53);  // spans all three ranges
                std::vector<float> ones(w.TotalLength(keys), 1.0f);
                w.Wait(w.Push(keys, ones));
                w.Barrier();
                std::vector<float> out(w.TotalLength(keys));
                w.Wait(w.Pull(keys, out));
                for (float v : out) CHECK(v == 4.0f);  // one push per worker, 4 workers
                w.Barrier();
              })
              .ok());
}

// Every worker pushes random integer updates to random keys (overlapping with
// everyone else's) without waiting; at the end every key must hold exactly the
// sum of all pushes to it.
void RunSumInvariant(uint32_t nodes, uint32_t workers, uint64_t seed) {
  constexpr int kRounds = 12;
  constexpr uint64_t kKeys = 60;
  LoopbackCluster cluster(JitteryCluster(nodes, workers, seed));
  std::map<Key, double> expected;
  for (NodeId n = 0; n < nodes; ++n)
    for (WorkerId w = 0; w < workers; ++w) {
      Rng rng(DeriveSeed(seed, n, w));
      for (int r = 0; r < kRounds; ++r)
        for (int i = 0; i < 5; ++i) {
          const Key k = Mix64(rng.Below(kKeys));
          expected[k] += static_cast<double>(1 + rng.Below(5));
        }
    }
  uint64_t checked = 0;
  Status s = cluster.Run([&](Worker& w) {
    Rng rng(DeriveSeed(seed, w.node_id(), w.id()));
    for (int r = 0; r < kRounds; ++r) {
      std::vector<Key> keys(5);
      std::vector<float> up(10);
      for (int i = 0; i < 5; ++i) {
        keys[i] = Mix64(rng.Below(kKeys));
        up[2 * i] = up[2 * i + 1] = static_cast<float>(1 + rng.Below(5));
      }
      w.Push(keys, up);  // fire and forget; Barrier completes them
      if (r % 4 == 0) {
        std::vector<float> scratch(10);
        w.Wait(w.Pull(keys, scratch));
      }
      w.AdvanceClock();
    }
    w.Barrier();
    if (w.node_id() == nodes - 1 && w.id() == 0) checked += CheckSums(w, expected);
    w.Barrier();
  });
  REQUIRE(s.ok());
  REQUIRE(checked == expected.size());
}

TEST_CASE("sum invariant: every push applied exactly once, over 50 message orders",
          "[protocol][invariant]") {
  const uint32_t nodes = GENERATE(1u, 2u, 3u, 5u, 8u);
  const uint32_t workers = GENERATE(1u, 3u);
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    INFO("nodes " << nodes << " workers " << workers << " seed " << seed);
    RunSumInvariant(nodes, workers, seed);
  }
}

TEST_CASE("read-your-writes for synchronous operations on remote keys", "[protocol]") {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    LoopbackCluster cluster(JitteryCluster(4, 2, seed));
    REQUIRE(cluster
                .Run([seed](Worker& w) {
                  // Each worker owns private keys (homed anywhere); it mixes Set and Push,
                  // waiting for each, and every Pull must see exactly its own writes.
                  Rng rng(DeriveSeed(seed ^ 9, w.node_id(), w.id()));
                  std::map<Key, float> model;
                  for (int i = 0; i < 40; ++i) {
                    const Key k = Mix64(1000 * (w.node_id() * 8 + w.id()) + rng.Below(6));
                    const float x = static_cast<float>(rng.Below(100));
                    const std::vector<Key> keys{k};
                    const std::vector<float> v{x, -x};
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
                    REQUIRE(out[1] == -model[k]);
                  }
                  w.Barrier();
                })
                .ok());
  }
}

TEST_CASE("the loopback runtime is deterministic per seed", "[protocol][testing]") {
  auto run = [](uint64_t seed) {
    LoopbackCluster cluster(JitteryCluster(5, 2, seed));
    std::vector<double> finish(10);
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  Rng rng(DeriveSeed(3, w.node_id(), w.id()));
                  for (int i = 0; i < 20; ++i) {
                    std::vector<Key> keys{rng.Below(500), rng.Below(500)};
                    std::vector<float> out(4);
                    w.Wait(w.Pull(keys, out));
                    w.Compute(1e-6);
                  }
                  finish[w.node_id() * 2 + w.id()] = w.Now();
                  w.Barrier();
                })
                .ok());
    return std::make_pair(finish, cluster.node(0).Metrics()[NodeCounter::kBytesReceived]);
  };
  CHECK(run(11) == run(11));
  CHECK(run(11).first != run(12).first);  // jitter really changes the interleaving
}

TEST_CASE("intent signals are accepted and counted by the classic technique", "[protocol]") {
  LoopbackCluster cluster(JitteryCluster(2, 1, 3));
  REQUIRE(cluster
              .Run([](Worker& w) {
                const std::vector<Key> keys{1, 2, 3};
                w.Intent(keys, 0, 2);
                w.AdvanceClock();
                w.AdvanceClock();
                CHECK(w.clock() == 2);
                w.Barrier();
              })
              .ok());
  CHECK(cluster.node(0).Metrics()[NodeCounter::kIntents] == 1);
  CHECK(cluster.node(1).Metrics()[NodeCounter::kIntentKeys] == 3);
}

TEST_CASE("a malformed or misrouted frame is an error and changes nothing", "[protocol]") {
  LoopbackCluster cluster(JitteryCluster(2, 1, 1));
  Node& node = cluster.node(0);
  const std::vector<uint8_t> junk{1, 2, 3, 4, 5};
  CHECK_THAT(node.OnMessage(1, junk).message(), Catch::Contains("frame from node 1"));

  Key foreign = 0;  // a key homed at node 1
  while (HomeNode(foreign, 2) != 1) ++foreign;
  Message push;
  push.type = MessageType::kPushRequest;
  push.src = push.origin = 1;
  push.keys = {foreign};
  push.values = {1.0f, 1.0f};
  // A request for a key held elsewhere is forwarded towards its home, not applied here.
  CHECK(node.OnMessage(1, Encode(push)).ok());
  CHECK_FALSE(node.store().Contains(foreign));
  CHECK(node.Metrics()[NodeCounter::kForwards] == 1);
  push.src = 0;  // claims to come from node 0 over node 1's connection
  CHECK_THAT(node.OnMessage(1, Encode(push)).message(), Catch::Contains("do not match"));

  Message response;
  response.type = MessageType::kPullResponse;
  response.src = response.origin = 1;
  response.op_id = 999;
  CHECK_THAT(node.OnMessage(1, Encode(response)).message(), Catch::Contains("unknown operation"));
  CHECK(node.store().Size() == 0);
}

}  // namespace
}  // namespace augur

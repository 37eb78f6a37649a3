// Worker::CreateHomeRows: each node creates, at setup, the main copies of the
// keys homed there, initialised as a first touch would; keys homed elsewhere
// or already held are left alone, and nothing counts as an access.
#include <catch2/catch.hpp>
#include <vector>

#include "core/policy/policy.h"
#include "tests/core/protocol/cluster_scenarios.h"

namespace augur {
namespace {

LoopbackOptions TwoNodes() {
  LoopbackOptions o = testing::JitteryCluster(2, 1, /*seed=*/7);
  o.node.policy = *MakePolicy("adaptive", {});
  o.node.init = [](Key key, std::span<float> row) {
    for (size_t i = 0; i < row.size(); ++i) row[i] = static_cast<float>(key % 1000) + 0.5f * i;
  };
  return o;
}

TEST_CASE("CreateHomeRows creates each node's home keys, initialised, and no others",
          "[protocol]") {
  LoopbackCluster cluster(TwoNodes());
  std::vector<Key> keys;
  for (Key k = 1; k <= 200; ++k) keys.push_back(Mix64(k));
  size_t sizes_after_setup[2] = {0, 0};
  uint64_t accesses_after_setup = 1;
  std::vector<float> out(keys.size() * 2);
  REQUIRE(cluster
              .Run([&](Worker& w) {
                w.CreateHomeRows(keys);
                REQUIRE(w.Barrier().ok());
                sizes_after_setup[w.node_id()] = cluster.node(w.node_id()).store().Size();
                if (w.node_id() == 0)
                  accesses_after_setup = w.local_accesses() + w.remote_accesses();
                REQUIRE(w.Barrier().ok());
                // The values are the initializer's, read from the other node.
                if (w.node_id() == 1) REQUIRE(w.Wait(w.Pull(keys, out)).ok());
              })
              .ok());
  size_t homed_at_0 = 0;
  for (Key k : keys) homed_at_0 += cluster.node(0).HomeOf(k) == 0;
  CHECK(homed_at_0 > 0);
  CHECK(homed_at_0 < keys.size());
  CHECK(sizes_after_setup[0] == homed_at_0);
  CHECK(sizes_after_setup[1] == keys.size() - homed_at_0);
  CHECK(accesses_after_setup == 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    CHECK(out[2 * i] == static_cast<float>(keys[i] % 1000));
    CHECK(out[2 * i + 1] == static_cast<float>(keys[i] % 1000) + 0.5f);
  }
}

TEST_CASE("CreateHomeRows leaves a key already held alone", "[protocol]") {
  LoopbackCluster cluster(TwoNodes());
  Key key = 1;
  while (cluster.node(0).HomeOf(key) != 0) ++key;
  const std::vector<Key> one = {key};
  const std::vector<float> set = {42, 43};
  std::vector<float> out(2);
  REQUIRE(cluster
              .Run([&](Worker& w) {
                if (w.node_id() != 0) return;
                REQUIRE(w.Wait(w.Set(one, set)).ok());
                w.CreateHomeRows(one);  // must not re-initialise what Set wrote
                REQUIRE(w.Wait(w.Pull(one, out)).ok());
              })
              .ok());
  CHECK(out == set);
  CHECK(cluster.node(0).store().Size() == 1);
}

}  // namespace
}  // namespace augur

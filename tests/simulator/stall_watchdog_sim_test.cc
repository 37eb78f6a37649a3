// The stall watchdog in the simulator (core/protocol/stall_watchdog.h): a
// pull whose answer never leaves its owner ends the simulation with the
// stall as its error, in simulated time. Without the watchdog this
// simulation never ends: node 0's sync timer keeps firing while its worker
// waits.
//
// One SimGrid engine per process: each TEST_CASE runs in its own process
// (catch_discover_tests).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/policy/relocate_policy.h"
#include "core/protocol/home.h"
#include "simulator/sim_cluster.h"

namespace augur {
namespace {

Key KeyHomedAt(NodeId home) {
  for (Key k = 1;; ++k)
    if (HomeNode(k, 2) == home) return k;
}

TEST_CASE("a pull whose answer never leaves its owner ends the simulation with the stall",
          "[sim][watchdog]") {
  SimClusterOptions o;
  o.nodes = 2;
  o.node.workers = 1;
  o.node.layout = ValueLayout(2);
  o.node.policy = std::make_shared<RelocatePolicy>();  // intents start the sync timer
  o.node.stall_timeout_seconds = 0.05;
  o.sim.platform = "star";
  o.sim.progress = false;
  Result<std::unique_ptr<SimCluster>> created = SimCluster::Create(o);
  REQUIRE(created.ok());
  SimCluster& cluster = **created;
  const Key mine = KeyHomedAt(0);
  const Key theirs = KeyHomedAt(1);
  const Status run = cluster.Run([&](Worker& w) {
    if (w.node_id() == 1) {
      // Stands in for a protocol bug: node 1 holds what its handlers send
      // (Node::HoldSends, called here out of its protocol actor), so its
      // answer to node 0's pull never leaves.
      cluster.node(1).HoldSends();
      return;
    }
    w.Intent(std::vector<Key>{mine}, 0, 1000);
    w.Compute(1e-3);
    std::vector<float> out(2);
    (void)w.Wait(w.Pull(std::vector<Key>{theirs}, out));
  });
  const std::string line = run.message();
  INFO(line);
  CHECK_THAT(line, Catch::Contains("stalled operation: node 0 worker 0 has waited "));
  CHECK_THAT(line, Catch::Contains(" s (simulated time) for a pull of 1 key (1 unanswered"));
  CHECK_THAT(line, Catch::Contains("key " + std::to_string(theirs) +
                                   " (home node 1): requests for it go to node 1"));
}

}  // namespace
}  // namespace augur

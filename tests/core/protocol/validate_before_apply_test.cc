// Validate before apply (node.h, OnMessage): a frame the node refuses leaves
// it as it was (store, directory, replicas, pending operations), and a
// worker waiting on a key is still woken by the frame that does bring it.
// Each case feeds a message whose first item is good and a later one bad:
// applying item by item would change state before failing.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "core/policy/relocate_policy.h"
#include "core/protocol/node.h"
#include "tests/core/protocol/scripted_runtime.h"

namespace augur {
namespace {

using testing::Deliver;
using testing::KeyHomedAt;
using testing::ScriptedRuntime;
using T = MessageType;

NodeOptions Relocating() { return testing::OneWorkerRelocating(); }

std::vector<float> Value(Node& node, Key k) {
  std::vector<float> v(2, -1.0f);
  REQUIRE(node.store().Pull(k, v.data(), false));
  return v;
}

TEST_CASE("a refused hand-over installs no key and loses no wake-up", "[protocol][validate]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(Relocating(), rt);
  const Key a = KeyHomedAt(0, 2);
  const Key b = KeyHomedAt(0, 2, a + 1);
  REQUIRE(Deliver(node, Message{T::kHandover, 0, 0, 0, 0, {b}, {1}, {5, 5}}).ok());
  Worker& w = node.worker(0);
  const std::vector<Key> want{a};
  w.Intent(want, 0, 10);  // asks node 0 for a
  std::vector<float> out(2, 0.0f);
  const Ticket t = w.Pull(want, out);  // queues here until a arrives
  REQUIRE(t.id != 0);
  rt.parkers[0]->script = [&] {
    // a is fine, b already has its main copy here.
    const Message bad{T::kHandover, 0, 0, 0, 0, {a, b}, {1, 1}, {1, 2, 7, 7}};
    CHECK_FALSE(Deliver(node, bad).ok());
    CHECK_FALSE(node.store().Contains(a));
    CHECK(Value(node, b) == std::vector<float>{5, 5});
    CHECK(node.PendingOperations() == 1);  // the pull still waits for a
    CHECK(rt.parkers[0]->unparks == 0);
    const Message twice{T::kHandover, 0, 0, 0, 0, {a, a}, {1, 1}, {1, 2, 1, 2}};
    CHECK_FALSE(Deliver(node, twice).ok());
    CHECK_FALSE(node.store().Contains(a));
    REQUIRE(Deliver(node, Message{T::kHandover, 0, 0, 0, 0, {a}, {1}, {1, 2}}).ok());
  };
  w.Wait(t);  // fails the test if the good hand-over does not wake it
  CHECK(out == std::vector<float>{1, 2});
  CHECK(rt.parkers[0]->unparks == 1);
  CHECK(node.PendingOperations() == 0);
}

TEST_CASE("a refused owner update leaves the directory as it was", "[protocol][validate]") {
  ScriptedRuntime rt(/*self=*/0, /*nodes=*/2);
  Node node(Relocating(), rt);
  const Key a = KeyHomedAt(0, 2);
  const Key c = KeyHomedAt(1, 2);  // not homed here
  CHECK_FALSE(Deliver(node, Message{T::kOwnerUpdate, 1, 1, 0, 1, {a, c}, {1, 1}, {}}).ok());
  CHECK_FALSE(Deliver(node, Message{T::kOwnerUpdate, 1, 1, 0, 1, {a}, {1u << 16}, {}}).ok());
  CHECK(node.DirectoryEntries() == 0);
  // Node 0 still holds a itself: a pull for it is answered here, not sent on
  // to node 1 as its owner.
  REQUIRE(Deliver(node, Message{T::kPullRequest, 1, 1, 9, 0, {a}, {0}, {}}).ok());
  REQUIRE(rt.sent.size() == 1);
  CHECK(rt.sent[0] == std::pair<NodeId, MessageType>{1, T::kPullResponse});
}

TEST_CASE("a refused replica grant creates no replica", "[protocol][validate]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(Relocating(), rt);
  const Key a = KeyHomedAt(0, 2);
  const Key b = KeyHomedAt(0, 2, a + 1);
  REQUIRE(Deliver(node, Message{T::kHandover, 0, 0, 0, 0, {b}, {1}, {5, 5}}).ok());
  CHECK_FALSE(Deliver(node, Message{T::kReplicaGrant, 0, 0, 0, 0, {a, b}, {}, {1, 2, 7, 7}}).ok());
  CHECK_FALSE(node.store().Contains(a));
  CHECK(Value(node, b) == std::vector<float>{5, 5});
  CHECK(node.Metrics()[NodeCounter::kReplicasCreated] == 0);
  REQUIRE(Deliver(node, Message{T::kReplicaGrant, 0, 0, 0, 0, {a}, {}, {1, 2}}).ok());
  CHECK(Value(node, a) == std::vector<float>{1, 2});
  CHECK(node.Metrics()[NodeCounter::kReplicasCreated] == 1);
}

TEST_CASE("a key on its way home takes a hand-over, not a replica", "[protocol][validate]") {
  // Node 1 hands a home: its owner update arrives, then a replica grant
  // instead of the hand-over. Accepted, the key would be expected here and
  // found nowhere by the next request for it.
  ScriptedRuntime rt(/*self=*/0, /*nodes=*/2);
  Node node(Relocating(), rt);
  const Key a = KeyHomedAt(0, 2);
  REQUIRE(Deliver(node, Message{T::kOwnerUpdate, 1, 1, 0, 0, {a}, {1}, {}}).ok());
  CHECK_FALSE(Deliver(node, Message{T::kReplicaGrant, 1, 1, 0, 0, {a}, {}, {1, 2}}).ok());
  CHECK_FALSE(node.store().Contains(a));
  REQUIRE(Deliver(node, Message{T::kHandover, 1, 1, 0, 0, {a}, {1}, {3, 4}}).ok());
  REQUIRE(Deliver(node, Message{T::kPullRequest, 1, 1, 9, 0, {a}, {0}, {}}).ok());
  REQUIRE(rt.messages.size() == 1);
  CHECK(rt.messages[0].values == std::vector<float>{3, 4});
}

TEST_CASE("a refused sync response refreshes no replica", "[protocol][validate]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(Relocating(), rt);
  const Key k = KeyHomedAt(0, 2);
  const std::vector<Key> keys{k};
  node.worker(0).Intent(keys, 0, 1000);  // keeps the replica
  REQUIRE(Deliver(node, Message{T::kReplicaGrant, 0, 0, 0, 0, {k}, {}, {1, 2}}).ok());
  const std::vector<float> delta{0.5f, 0.5f};
  node.worker(0).Wait(node.worker(0).Push(keys, delta));
  node.OnTimer(1);
  const uint64_t round = rt.messages.back().op_id;
  REQUIRE(rt.messages.back().type == T::kSyncRequest);
  // Another round, or this one acknowledging more keys than it flushed.
  CHECK_FALSE(Deliver(node, Message{T::kSyncResponse, 0, 0, round + 7, 0, {k}, {}, {9, 9}}).ok());
  CHECK_FALSE(Deliver(node, Message{T::kSyncResponse, 0, 0, round, 5, {k}, {}, {9, 9}}).ok());
  CHECK(Value(node, k) == std::vector<float>{1.5f, 2.5f});
  CHECK(node.PendingOperations() == 1);
  REQUIRE(Deliver(node, Message{T::kSyncResponse, 0, 0, round, 0, {k}, {}, {9, 9}}).ok());
  CHECK(Value(node, k) == std::vector<float>{9, 9});
  CHECK(node.PendingOperations() == 0);
}

TEST_CASE("a request claiming to be this node's own must match its operation",
          "[protocol][validate]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(Relocating(), rt);
  const Key mine = KeyHomedAt(1, 2);
  // No operation 77 here: applied, it would complete nothing (an abort before).
  CHECK_FALSE(Deliver(node, Message{T::kPushRequest, 0, 1, 77, 0, {mine}, {}, {1, 1}}).ok());
  CHECK_FALSE(node.store().Contains(mine));
  const Key theirs = KeyHomedAt(0, 2);
  std::vector<float> out(2);
  const std::vector<Key> keys{theirs};
  const Ticket t = node.worker(0).Pull(keys, out);
  REQUIRE(t.id != 0);
  rt.sent.clear();
  // Its own pull, back via the home: a slot outside the buffer, or a push
  // for a pull operation.
  CHECK_FALSE(
      Deliver(node, Message{T::kPullRequest, 0, 1, t.id, kViaHome, {theirs}, {100}, {}}).ok());
  CHECK_FALSE(
      Deliver(node, Message{T::kPushRequest, 0, 1, t.id, kViaHome, {theirs}, {}, {1, 1}}).ok());
  CHECK(rt.sent.empty());
  CHECK(node.PendingOperations() == 1);
}

TEST_CASE("a main copy with replica holders stays, whatever the policy", "[protocol][validate]") {
  // Under relocate no node holds replicas, but a peer's unsolicited sync
  // request makes it a holder; a later request from another node then gets
  // a replica instead of moving the key away from that holder (an abort
  // before).
  ScriptedRuntime rt(/*self=*/0, /*nodes=*/3);
  Node node(Relocating(), rt);
  const Key k = KeyHomedAt(0, 3);
  REQUIRE(Deliver(node, Message{T::kSyncRequest, 1, 1, 5, 0, {k}, {1}, {1, 1}}).ok());
  REQUIRE(Deliver(node, Message{T::kLocalizeRequest, 1, 2, 0, 0, {k}, {}, {}}).ok());
  CHECK(node.store().Contains(k));
  REQUIRE(!rt.sent.empty());
  CHECK(rt.sent.back() == std::pair<NodeId, MessageType>{2, T::kReplicaGrant});
}

TEST_CASE("barrier messages for a generation not open are refused", "[protocol][validate]") {
  ScriptedRuntime r1(/*self=*/1, /*nodes=*/2);
  Node n1(Relocating(), r1);
  CHECK_FALSE(Deliver(n1, Message{T::kBarrierRelease, 0, 0, 0, 0, {}, {}, {}}).ok());
  ScriptedRuntime r0(/*self=*/0, /*nodes=*/2);
  Node n0(Relocating(), r0);
  CHECK_FALSE(Deliver(n0, Message{T::kBarrierArrive, 1, 1, 0, 3, {}, {}, {}}).ok());
  CHECK(Deliver(n0, Message{T::kBarrierArrive, 1, 1, 0, 0, {}, {}, {}}).ok());
  CHECK(r0.sent.empty());  // node 0's own worker has not arrived
}

}  // namespace
}  // namespace augur

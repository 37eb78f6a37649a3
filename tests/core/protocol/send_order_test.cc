// What leaves a node, and when (core/protocol/node.h):
//  - messages leave in the order they were built, whichever context built
//    them. With real threads a worker can build a message while the protocol
//    thread is between unlocking and sending its own; a scripted runtime
//    stages that interleaving deterministically by running a worker call
//    from inside the first Send() of a protocol handler;
//  - what one handler builds for one node leaves as one frame (a bundle),
//    and the answers to the messages of a bundle, or of the frames of one
//    receive round (Node::HoldSends), leave together; a worker's own
//    messages leave at once, even in the middle of such a round;
//  - a node that hands a key over tells the key's home at its next sync
//    round (unless the key goes home), all that round's updates for that
//    home in one message;
//  - a node's own localize request that comes back goes again, to the
//    home, after a full sync round;
//  - a timer sync round starts only once the previous one was answered, and
//    the next timer is paced by the time the round took to build.
#include <catch2/catch.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "core/policy/relocate_policy.h"
#include "core/protocol/node.h"
#include "tests/core/protocol/scripted_runtime.h"

namespace augur {
namespace {

using testing::Deliver;
using testing::KeyHomedAt;
using testing::OneWorkerRelocating;
using testing::ScriptedRuntime;

TEST_CASE("a worker's request built during a hand-over leaves after it", "[protocol]") {
  // Node 1 holds key k (homed at node 0), hands it home on node 0's request,
  // and its worker signals intent for k while the hand-over is being sent.
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(OneWorkerRelocating(), rt);
  const Key k = KeyHomedAt(0, 2);

  Message arrive{MessageType::kHandover, 0, 0, 0, 0, {k}, {1}, {1.0f, 2.0f}};
  REQUIRE(Deliver(node, arrive).ok());
  REQUIRE(node.store().Contains(k));
  rt.sent.clear();

  rt.on_first_send = [&] {
    const std::vector<Key> keys{k};
    node.worker(0).Intent(keys, 0, 10);  // k is gone: the node asks for it back
  };
  Message want{MessageType::kLocalizeRequest, 0, 0, 0, 0, {k}, {}, {}};
  REQUIRE(Deliver(node, want).ok());

  // The home must see the owner update and the hand-over before the request
  // for k again; otherwise it bounces the request back to node 1, which then
  // waits for a key nobody sends.
  const std::vector<std::pair<NodeId, MessageType>> expected{
      {0, MessageType::kOwnerUpdate},
      {0, MessageType::kHandover},
      {0, MessageType::kLocalizeRequest},
  };
  CHECK(rt.sent == expected);
  CHECK_FALSE(node.store().Contains(k));
}

// A runtime's Send may throw: SimGrid kills the protocol actors when the last
// worker ends, and the kill unwinds from the actor's next simcall, which may
// be the send of a receive round's answers. That send must not run in a
// destructor, where a throw terminates the process (it did: `augur sim` of a
// 3-node kge run aborted at its end).
TEST_CASE("a send that throws leaves the handler as an exception, not a termination",
          "[protocol]") {
  struct Killed {};
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(OneWorkerRelocating(), rt);
  const Key k = KeyHomedAt(0, 2);
  Message arrive{MessageType::kHandover, 0, 0, 0, 0, {k}, {1}, {1.0f, 2.0f}};
  REQUIRE(Deliver(node, arrive).ok());
  rt.on_first_send = [] { throw Killed{}; };
  const Message want{MessageType::kLocalizeRequest, 0, 0, 0, 0, {k}, {}, {}};
  SECTION("a receive round of frames (Node::OnMessages)") {
    const std::vector<std::vector<uint8_t>> frames{Encode(want)};
    CHECK_THROWS_AS(node.OnMessages(0, frames), Killed);
  }
  SECTION("a bundle (Node::OnMessage)") {
    std::vector<uint8_t> bundle;
    const std::vector<const Message*> one{&want};
    EncodeBundle(0, one, &bundle);
    CHECK_THROWS_AS(node.OnMessage(0, bundle), Killed);
  }
  CHECK(rt.frames == 1);  // the hand-over's frame was on its way
}

TEST_CASE("a handler's messages for one node leave as one frame, a bundle's answers too",
          "[protocol]") {
  // Node 1 holds keys a and b (homed at node 2) and hands them to node 0.
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/3);
  Node node(OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(2, 3);
  const Key b = KeyHomedAt(2, 3, a + 1);
  Message arrive{MessageType::kHandover, 2, 2, 0, 0, {a, b}, {1, 1}, {1, 2, 3, 4}};
  REQUIRE(Deliver(node, arrive).ok());
  rt.sent.clear();
  rt.frames = 0;

  SECTION("one request: the hand-over now, the owner update at the next sync round") {
    Message want{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    REQUIRE(Deliver(node, want).ok());
    const std::vector<std::pair<NodeId, MessageType>> now{{0, MessageType::kHandover}};
    CHECK(rt.sent == now);
    CHECK(rt.frames == 1);
    node.OnTimer(EngineContext::kSyncTimer);
    const std::vector<std::pair<NodeId, MessageType>> then{{0, MessageType::kHandover},
                                                           {2, MessageType::kOwnerUpdate}};
    CHECK(rt.sent == then);
    CHECK(rt.messages.back().keys == std::vector<Key>{a});
    CHECK(rt.messages.back().aux == 0);  // the new owner
  }
  SECTION("with immediate owner updates, each peer's answers are one frame") {
    NodeOptions o = OneWorkerRelocating();
    o.immediate_owner_updates = true;
    ScriptedRuntime rt2(/*self=*/1, /*nodes=*/3);
    Node eager(o, rt2);
    REQUIRE(Deliver(eager, arrive).ok());
    rt2.sent.clear();
    rt2.frames = 0;
    Message want{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    REQUIRE(Deliver(eager, want).ok());
    const std::vector<std::pair<NodeId, MessageType>> expected{{2, MessageType::kOwnerUpdate},
                                                               {0, MessageType::kHandover}};
    CHECK(rt2.sent == expected);
    CHECK(rt2.frames == 2);
  }
  SECTION("a bundle of two requests: their answers for each peer leave as one frame") {
    const Message first{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    const Message second{MessageType::kLocalizeRequest, 0, 0, 0, kViaHome, {b}, {}, {}};
    std::vector<uint8_t> bundle;
    const std::vector<const Message*> both{&first, &second};
    EncodeBundle(0, both, &bundle);
    REQUIRE(node.OnMessage(0, bundle).ok());
    // Handled one by one, the two hand-overs to node 0 (one per handler
    // call) would be two frames.
    CHECK(rt.sent.size() == 2);
    CHECK(rt.frames == 1);
    CHECK(rt.messages.size() == 2);
    CHECK_FALSE(node.store().Contains(a));
    CHECK_FALSE(node.store().Contains(b));
    CHECK(node.Metrics()[NodeCounter::kMessagesReceived] == 2);  // the hand-over, the bundle
    CHECK(node.Metrics()[NodeCounter::kBundledMessages] == 2);
    // The home hears of both at the next sync round, in one message.
    node.OnTimer(EngineContext::kSyncTimer);
    CHECK(rt.frames == 2);
    REQUIRE(rt.messages.size() == 3);
    CHECK(rt.messages.back().type == MessageType::kOwnerUpdate);
    CHECK(rt.messages.back().keys == std::vector<Key>{a, b});
  }
  SECTION("frames handled in one receive round: their answers for each peer leave as one frame") {
    // Two frames that one wake-up of the protocol thread read (two ready
    // sockets, or two frames in one read), handled with the sends held.
    const Message first{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    const Message second{MessageType::kLocalizeRequest, 0, 0, 0, kViaHome, {b}, {}, {}};
    node.HoldSends();
    REQUIRE(Deliver(node, first).ok());
    REQUIRE(Deliver(node, second).ok());
    CHECK(rt.frames == 0);  // held until the round ends
    node.ReleaseSends();
    CHECK(rt.sent.size() == 2);
    CHECK(rt.frames == 1);
    CHECK_FALSE(node.store().Contains(a));
    CHECK_FALSE(node.store().Contains(b));
  }
  SECTION("a worker's request during a receive round leaves at once, with what is staged") {
    // The protocol thread holds the sends for a round and, on a real node,
    // may lose its core to a worker in the middle of it: the worker's own
    // request must not wait for the round to end.
    const Message first{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    const Message second{MessageType::kLocalizeRequest, 0, 0, 0, kViaHome, {b}, {}, {}};
    const Key c = KeyHomedAt(2, 3, b + 1);
    node.HoldSends();
    REQUIRE(Deliver(node, first).ok());
    CHECK(rt.frames == 0);
    const std::vector<Key> keys{c};
    node.worker(0).Intent(keys, 0, 10);  // c is not here: the worker's node asks for it
    const std::vector<std::pair<NodeId, MessageType>> now{{0, MessageType::kHandover},
                                                          {2, MessageType::kLocalizeRequest}};
    CHECK(rt.sent == now);  // in build order: the answer staged first goes too
    CHECK(rt.frames == 2);
    REQUIRE(Deliver(node, second).ok());
    CHECK(rt.frames == 2);  // the rest of the round is held again
    node.ReleaseSends();
    CHECK(rt.sent.size() == 3);
    CHECK(rt.frames == 3);
  }
  SECTION("frames handled one by one: each answer leaves at once") {
    const Message first{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    const Message second{MessageType::kLocalizeRequest, 0, 0, 0, kViaHome, {b}, {}, {}};
    REQUIRE(Deliver(node, first).ok());
    CHECK(rt.frames == 1);
    REQUIRE(Deliver(node, second).ok());
    CHECK(rt.frames == 2);
  }
  SECTION("a bundle with a malformed message applies none of it") {
    const Message good{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
    const Message forged{MessageType::kLocalizeRequest, 2, 2, 0, 0, {b}, {}, {}};
    std::vector<uint8_t> bundle;
    const std::vector<const Message*> both{&good, &forged};
    EncodeBundle(0, both, &bundle);
    CHECK_THAT(node.OnMessage(0, bundle).message(), Catch::Contains("sender 2, the bundle's is 0"));
    CHECK(rt.frames == 0);
    CHECK(node.store().Contains(a));
  }
}

TEST_CASE("until the home hears of a hand-over, the old owner sends requests to the new one",
          "[protocol]") {
  // Node 1 holds key a (homed at node 2) and hands it to node 0; the owner
  // update waits for node 1's next sync round. A pull of a from node 2 that
  // reaches node 1 meanwhile goes to node 0: the home would send it back.
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/3);
  Node node(OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(2, 3);
  Message arrive{MessageType::kHandover, 2, 2, 0, 0, {a}, {1}, {1, 2}};
  REQUIRE(Deliver(node, arrive).ok());
  Message want{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}};
  REQUIRE(Deliver(node, want).ok());
  rt.sent.clear();
  Message pull{MessageType::kPullRequest, 2, 2, 7, 0, {a}, {0}, {}};
  REQUIRE(Deliver(node, pull).ok());
  const std::vector<std::pair<NodeId, MessageType>> to_owner{{0, MessageType::kPullRequest}};
  CHECK(rt.sent == to_owner);

  // The update leaves at the next sync round; until two rounds later the
  // home may not have it, and requests still go to the new owner.
  for (int round = 1; round <= 2; ++round) {
    INFO("sync round " << round);
    node.OnTimer(EngineContext::kSyncTimer);
    rt.sent.clear();
    REQUIRE(Deliver(node, pull).ok());
    CHECK(rt.sent == to_owner);
  }
  node.OnTimer(EngineContext::kSyncTimer);  // the home has heard of it
  rt.sent.clear();
  REQUIRE(Deliver(node, pull).ok());
  const std::vector<std::pair<NodeId, MessageType>> via_home{{2, MessageType::kPullRequest}};
  CHECK(rt.sent == via_home);
}

TEST_CASE("a node that wants a key back passes the home's stale requests on", "[protocol]") {
  // Node 1 hands key a (homed at node 2) to node 0; its owner update leaves at
  // the next sync round. Node 1 then wants a back (intent) while the home,
  // not yet told, routes another node's request for a to node 1 as the
  // owner. Queued behind node 1's own request, it would wait for a key that
  // may never come here: with two such nodes each holding the other's
  // request, neither ever gets it (an 8-node simulation hung so). It goes on
  // to node 0.
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/3);
  Node node(OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(2, 3);
  REQUIRE(Deliver(node, Message{MessageType::kHandover, 2, 2, 0, 0, {a}, {1}, {1, 2}}).ok());
  REQUIRE(Deliver(node, Message{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}}).ok());
  node.OnTimer(EngineContext::kSyncTimer);  // the owner update leaves
  const std::vector<Key> keys{a};
  node.worker(0).Intent(keys, 0, 10);  // node 1 asks for a again
  rt.sent.clear();
  Message stale{MessageType::kLocalizeRequest, 2, 0, 0, kViaHome, {a}, {}, {}};
  REQUIRE(Deliver(node, stale).ok());
  const std::vector<std::pair<NodeId, MessageType>> on{{0, MessageType::kLocalizeRequest}};
  CHECK(rt.sent == on);
}

TEST_CASE("a key handed back to its old owner is no longer routed where it went", "[protocol]") {
  // Node 1 hands key a (homed at node 2) to node 0, gets it back before its
  // next sync round, and hands it home. A request of node 0's that reaches
  // node 1 then goes to the home: sent to node 0, where it was handed
  // first, it came back to the node that asked (a real 3-process run hung).
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/3);
  Node node(OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(2, 3);
  REQUIRE(Deliver(node, Message{MessageType::kHandover, 2, 2, 0, 0, {a}, {1}, {1, 2}}).ok());
  REQUIRE(Deliver(node, Message{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}}).ok());
  REQUIRE_FALSE(node.store().Contains(a));
  REQUIRE(Deliver(node, Message{MessageType::kHandover, 0, 0, 0, 0, {a}, {2}, {1, 2}}).ok());
  REQUIRE(node.store().Contains(a));
  REQUIRE(Deliver(node, Message{MessageType::kLocalizeRequest, 2, 2, 0, 0, {a}, {}, {}}).ok());
  REQUIRE_FALSE(node.store().Contains(a));
  rt.sent.clear();
  REQUIRE(Deliver(node, Message{MessageType::kLocalizeRequest, 0, 0, 0, 0, {a}, {}, {}}).ok());
  const std::vector<std::pair<NodeId, MessageType>> to_home{{2, MessageType::kLocalizeRequest}};
  CHECK(rt.sent == to_home);
}

TEST_CASE("a node's own localize request that comes back is sent again via the home",
          "[protocol]") {
  // Node 1 asks for key a (homed at node 2); node 0, taking node 1 for the
  // owner, sends the request back. Queued, it would wait for a key nobody
  // sends: it goes again to the home at the second sync round from now.
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/3);
  Node node(OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(2, 3);
  const std::vector<Key> keys{a};
  node.worker(0).Intent(keys, 0, 10);
  const std::vector<std::pair<NodeId, MessageType>> asked{{2, MessageType::kLocalizeRequest}};
  REQUIRE(rt.sent == asked);
  rt.sent.clear();
  const Message back{MessageType::kLocalizeRequest, 0, 1, 0, 0, {a}, {}, {}};
  REQUIRE(Deliver(node, back).ok());
  CHECK(rt.sent.empty());

  SECTION("the key does not come: asked again after a full round") {
    node.OnTimer(EngineContext::kSyncTimer);
    CHECK(rt.sent.empty());
    node.OnTimer(EngineContext::kSyncTimer);
    CHECK(rt.sent == asked);
    CHECK(rt.messages.back().keys == keys);
    CHECK(rt.messages.back().origin == 1);
    CHECK(node.Metrics()[NodeCounter::kLocalizeRetries] == 1);
    rt.sent.clear();
    node.OnTimer(EngineContext::kSyncTimer);  // once per bounce
    CHECK(rt.sent.empty());
  }
  SECTION("the key arrives meanwhile: nothing is sent again") {
    REQUIRE(Deliver(node, Message{MessageType::kHandover, 0, 0, 0, 0, {a}, {3}, {1, 2}}).ok());
    REQUIRE(node.store().Contains(a));
    node.OnTimer(EngineContext::kSyncTimer);
    node.OnTimer(EngineContext::kSyncTimer);
    CHECK(node.Metrics()[NodeCounter::kLocalizeRetries] == 0);
    for (const auto& [to, type] : rt.sent) CHECK(type != MessageType::kLocalizeRequest);
  }
}

TEST_CASE("a timer sync round waits until the previous one is answered", "[protocol]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(OneWorkerRelocating(), rt);
  const Key k = KeyHomedAt(0, 2);
  const std::vector<Key> keys{k};
  node.worker(0).Intent(keys, 0, 1000);  // keeps the replica from being dropped
  Message grant{MessageType::kReplicaGrant, 0, 0, 0, 0, {k}, {}, {1.0f, 2.0f}};
  REQUIRE(Deliver(node, grant).ok());
  const std::vector<float> delta{0.5f, 0.5f};
  node.worker(0).Wait(node.worker(0).Push(keys, delta));
  rt.messages.clear();

  auto sync_requests = [&] {
    int n = 0;
    for (const Message& m : rt.messages) n += m.type == MessageType::kSyncRequest;
    return n;
  };
  node.OnTimer(1);
  REQUIRE(sync_requests() == 1);
  const Message first = rt.messages.back();
  CHECK(first.values == delta);
  node.OnTimer(1);  // unanswered: no second round, the delta stays here
  node.OnTimer(1);
  CHECK(sync_requests() == 1);

  Message answer{MessageType::kSyncResponse, 0, 0, first.op_id, 0, {k}, {}, {1.5f, 2.5f}};
  REQUIRE(Deliver(node, answer).ok());
  node.OnTimer(1);
  CHECK(sync_requests() == 2);
  CHECK(node.PendingOperations() == 1);  // the new round, until it is answered
}

TEST_CASE("timer rounds are paced by their build time and timed to their answer", "[protocol]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  NodeOptions o = OneWorkerRelocating();
  o.sync_period_seconds = 1e-3;
  Node node(o, rt);
  const Key k = KeyHomedAt(0, 2);
  const std::vector<Key> keys{k};
  node.worker(0).Intent(keys, 0, 10);
  Message grant{MessageType::kReplicaGrant, 0, 0, 0, 0, {k}, {}, {1.0f, 2.0f}};
  REQUIRE(Deliver(node, grant).ok());
  rt.timer_delays.clear();

  node.OnTimer(1);  // the clock stands still in the handler: the period
  REQUIRE(rt.timer_delays.size() == 1);
  CHECK(rt.timer_delays.back() == Approx(1e-3));
  CHECK(node.Metrics()[NodeCounter::kSyncRoundTrips] == 0);  // not answered yet
  rt.now = 0.0025;                                           // answered 2.5 ms after it left
  Message answer{MessageType::kSyncResponse, 0, 0, rt.messages.back().op_id, 0, {k}, {}, {1, 2}};
  REQUIRE(Deliver(node, answer).ok());
  const MetricsSnapshot m = node.Metrics();
  CHECK(m[NodeCounter::kSyncRoundTrips] == 1);
  CHECK(m[NodeCounter::kSyncRoundTripMicros] == 2500);

  rt.now_step = 0.01;  // the handler takes 10 ms: the next round waits 5x that
  node.OnTimer(1);
  REQUIRE(rt.timer_delays.size() == 2);
  CHECK(rt.timer_delays.back() == Approx(0.05));
  CHECK(node.Metrics()[NodeCounter::kSyncRounds] == 2);
}

TEST_CASE("a replica whose intent ended is flushed, dropped and counted", "[protocol]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(OneWorkerRelocating(), rt);
  const Key k = KeyHomedAt(0, 2);
  const std::vector<Key> keys{k};
  node.worker(0).Intent(keys, 0, 1);
  Message grant{MessageType::kReplicaGrant, 0, 0, 0, 0, {k}, {}, {1.0f, 2.0f}};
  REQUIRE(Deliver(node, grant).ok());
  node.OnTimer(1);  // intent still active: kept
  CHECK(node.store().Contains(k));
  CHECK(node.Metrics()[NodeCounter::kReplicasDropped] == 0);
  Message answer{MessageType::kSyncResponse, 0, 0, rt.messages.back().op_id, 0, {k}, {}, {1, 2}};
  REQUIRE(Deliver(node, answer).ok());
  node.worker(0).AdvanceClock();  // the signal [0, 1) ends
  node.OnTimer(1);
  CHECK_FALSE(node.store().Contains(k));
  CHECK(rt.messages.back().type == MessageType::kSyncRequest);
  CHECK((rt.messages.back().slots.at(0) & kDropBit) != 0);
  const MetricsSnapshot m = node.Metrics();
  CHECK(m[NodeCounter::kReplicasCreated] == 1);
  CHECK(m[NodeCounter::kReplicasDropped] == 1);
}

}  // namespace
}  // namespace augur

// Requests queued for a key on its way to this node (Routing::Dispatch,
// KeyRequest::Own): a request's values are borrowed from the worker's buffer
// or the received frame while it is handled, so one that waits for the key
// must keep its own copy. Here the worker's buffer is overwritten and the
// frame freed before the key arrives; the pushes still apply as sent.
#include <catch2/catch.hpp>
#include <vector>

#include "core/protocol/engine_context.h"
#include "core/protocol/node.h"
#include "tests/core/protocol/scripted_runtime.h"

namespace augur {
namespace {

using testing::Deliver;
using testing::KeyHomedAt;
using testing::ScriptedRuntime;
using T = MessageType;

TEST_CASE("pushes queued for a key in transfer apply the values they were sent with",
          "[protocol][relocation]") {
  ScriptedRuntime rt(/*self=*/1, /*nodes=*/2);
  Node node(testing::OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(0, 2);
  const std::vector<Key> keys{a};
  Worker& w = node.worker(0);
  w.Intent(keys, 0, 10);  // asks node 0 for a: a is in transfer to node 1 from here on
  std::vector<float> delta{1, 1};
  const Ticket own = w.Push(keys, delta);
  REQUIRE(own.id != 0);      // queued until a arrives
  delta.assign({100, 100});  // the worker's buffer, reused
  // Node 0 (the home) routes another node's push for a here, where a is on its way.
  REQUIRE(Deliver(node, Message{T::kPushRequest, 0, 0, 9, kViaHome, {a}, {}, {5, 5}}).ok());
  CHECK(node.PendingOperations() == 1);
  // The hand-over brings a: both queued pushes apply to its value.
  REQUIRE(Deliver(node, Message{T::kHandover, 0, 0, 0, 0, {a}, {1}, {1, 2}}).ok());
  REQUIRE(w.Wait(own).ok());
  std::vector<float> value(2, -1.0f);
  REQUIRE(node.store().Pull(a, value.data(), false));
  CHECK(value == std::vector<float>{7, 8});
  CHECK(node.PendingOperations() == 0);
}

TEST_CASE("a request the home routes here after this node handed the key on goes back home",
          "[protocol][relocation]") {
  // Node 0 of 3; the key's home is node 1. Node 0 had the key, handed it to
  // node 2, and wants it again. The home, not yet told of that hand-over (its
  // owner update is slower than the two sync rounds node 0 keeps a pointer to
  // node 2), routes another node's request here. Queued behind node 0's own
  // request, it would wait for a key that goes elsewhere: with two nodes
  // each holding the other's request, neither got the key (a simulated wv
  // run that never ended). It goes back to the home instead.
  ScriptedRuntime rt(/*self=*/0, /*nodes=*/3);
  Node node(testing::OneWorkerRelocating(), rt);
  const Key a = KeyHomedAt(1, 3);
  const std::vector<Key> keys{a};
  Worker& w = node.worker(0);
  w.Intent(keys, 0, 1);  // node 0 asks the home for a ...
  REQUIRE(
      Deliver(node, Message{T::kHandover, 1, 1, 0, 0, {a}, {1}, {1, 2}}).ok());  // ... and has it
  w.AdvanceClock();  // the intent ended: node 0 no longer wants a
  // Node 2 asks for a through the home; node 0 hands it over (the owner
  // update waits for node 0's next sync round).
  REQUIRE(Deliver(node, Message{T::kLocalizeRequest, 1, 2, 0, kViaHome, {a}, {}, {}}).ok());
  REQUIRE(!node.store().Contains(a));
  for (int round = 0; round < 3; ++round) node.OnTimer(EngineContext::kSyncTimer);
  w.Intent(keys, 1, 4);  // node 0 wants a back: a is in transfer to node 0 from here on
  const size_t before = rt.sent.size();
  // The home, whose directory still names node 0, routes node 2's next request here.
  REQUIRE(Deliver(node, Message{T::kLocalizeRequest, 1, 2, 0, kViaHome, {a}, {}, {}}).ok());
  REQUIRE(rt.sent.size() == before + 1);
  CHECK(rt.sent.back() == std::make_pair(NodeId{1}, T::kLocalizeRequest));
  CHECK(rt.messages.back().origin == 2);
  CHECK(rt.messages.back().aux == 0);  // not via the home: the home routes it again
}

}  // namespace
}  // namespace augur

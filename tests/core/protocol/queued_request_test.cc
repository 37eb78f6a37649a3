// Requests queued for a key on its way to this node (Routing::Dispatch,
// KeyRequest::Own): a request's values are borrowed from the worker's buffer
// or the received frame while it is handled, so one that waits for the key
// must keep its own copy. Here the worker's buffer is overwritten and the
// frame freed before the key arrives; the pushes still apply as sent.
#include <catch2/catch.hpp>
#include <vector>

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

}  // namespace
}  // namespace augur

// ScriptedRuntime: one node's runtime for protocol unit tests that drive a
// Node frame by frame from the test's own thread.
//
// It records every frame the node sends (decoded) and every timer delay;
// timers are never fired (tests call Node::OnTimer). Now() advances by
// `now_step` per call. A worker that parks runs the parker's `script`
// (once): the test delivers frames from there, standing in for the protocol
// thread while the worker waits. A park with nothing left to run fails the
// test instead of hanging. Fail records the error and cancels the workers.
// Not thread-safe: one test thread.
#pragma once

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/codec/codec.h"
#include "core/policy/relocate_policy.h"
#include "core/protocol/home.h"
#include "core/protocol/node.h"
#include "core/runtime/checked_mutex.h"

namespace augur::testing {

class ScriptedParker final : public Parker {
 public:
  void Park() override {
    REQUIRE(script);  // parked with nothing that could wake it: a lost wake-up
    std::exchange(script, nullptr)();
    if (!permit_) FAIL("the worker was not woken");
    permit_ = false;
  }
  void Unpark() override {
    permit_ = true;
    ++unparks;
  }
  std::function<void()> script;
  int unparks = 0;

 private:
  bool permit_ = false;
};

class ScriptedRuntime final : public Runtime {
 public:
  ScriptedRuntime(NodeId self, uint32_t nodes) : self_(self), nodes_(nodes) {}
  NodeId self() const override { return self_; }
  uint32_t num_nodes() const override { return nodes_; }
  // Records each message, the messages of a bundle one by one (`frames`
  // counts what was sent).
  void Send(NodeId to, std::vector<uint8_t> frame) override {
    ++frames;
    Result<FrameHeader> h = DecodeHeader(frame);
    REQUIRE(h.ok());
    if (h->type == MessageType::kBundle) {
      Result<std::vector<std::span<const uint8_t>>> parts = SplitBundle(frame);
      REQUIRE(parts.ok());
      for (std::span<const uint8_t> part : *parts) Record(to, part);
    } else {
      Record(to, frame);
    }
    if (on_first_send) std::exchange(on_first_send, nullptr)();
  }
  // Each call moves the clock by `now_step` (0: time stands still in handlers).
  double Now() override { return now += now_step; }
  const char* ClockName() const override { return "scripted"; }
  void Compute(double) override {}
  void SetTimer(double delay, uint64_t) override { timer_delays.push_back(delay); }
  // Records the error and cancels every worker, as a real runtime ends their waits.
  void Fail(const Status& error) override {
    failures.push_back(error);
    for (ScriptedParker* p : parkers) p->Cancel();
  }
  std::unique_ptr<Mutex> NewMutex() override { return std::make_unique<CheckedMutex>(); }
  std::unique_ptr<Parker> NewParker() override {
    auto p = std::make_unique<ScriptedParker>();
    parkers.push_back(p.get());
    return p;
  }

  size_t frames = 0;
  std::vector<std::pair<NodeId, MessageType>> sent;
  std::vector<Message> messages;
  std::vector<ScriptedParker*> parkers;  // per worker, owned by the Node
  std::function<void()> on_first_send;
  double now = 0;
  double now_step = 0;
  std::vector<double> timer_delays;  // every SetTimer delay, in order
  std::vector<Status> failures;      // every Fail, in order

 private:
  void Record(NodeId to, std::span<const uint8_t> frame) {
    Result<Message> m = Decode(frame);
    REQUIRE(m.ok());
    sent.emplace_back(to, m->type);
    messages.push_back(*m);
  }

  NodeId self_;
  uint32_t nodes_;
};

inline Key KeyHomedAt(NodeId home, uint32_t nodes, Key from = 1) {
  for (Key k = from;; ++k)
    if (HomeNode(k, nodes) == home) return k;
}

inline Status Deliver(Node& node, const Message& m) { return node.OnMessage(m.src, Encode(m)); }

// One worker, rows of 2 floats, relocate policy, intents act at once.
inline NodeOptions OneWorkerRelocating() {
  NodeOptions o;
  o.workers = 1;
  o.layout = ValueLayout(2);
  o.policy = std::make_shared<RelocatePolicy>();
  o.act_immediately = true;
  return o;
}

}  // namespace augur::testing

// Worker over a stand-in NodePort: the hot path (keys held in the store)
// never reaches the node's engine; the keys it lacks go to SlowPath, once
// per operation, and waits re-check their condition through the port.
#include "core/api/worker.h"

#include <catch2/catch.hpp>

namespace augur {
namespace {

// Two nodes, so keys are not created on first touch; no clock, no network.
class StillRuntime final : public Runtime {
 public:
  NodeId self() const override { return 0; }
  uint32_t num_nodes() const override { return 2; }
  void Send(NodeId, std::vector<uint8_t>) override {}
  double Now() override { return 0; }
  void Compute(double) override {}
  void SetTimer(double, uint64_t) override {}
  std::unique_ptr<Mutex> NewMutex() override { return nullptr; }
  std::unique_ptr<Parker> NewParker() override { return nullptr; }
};

class NoParker final : public Parker {
 public:
  void Park() override {}
  void Unpark() override {}
};

// Answers every slow-path operation with ticket 7, done once polled twice.
class RecordingPort final : public NodePort {
 public:
  Ticket SlowPath(WorkerId, MessageType, std::span<const Key> keys, std::span<const uint32_t>,
                  std::span<const uint32_t> missing, const float*, std::span<float>) override {
    ++slow_paths;
    for (uint32_t i : missing) slow_keys.push_back(keys[i]);
    return Ticket{7};
  }
  bool OpDone(uint64_t) override { return ++polls >= 2; }
  bool WorkerIdle(WorkerId) override { return true; }
  void SetWaiting(WorkerId, bool) override {}
  void RecordIntents(WorkerId, std::span<const IntentSignal>) override {}
  void RecordClock(WorkerId, Clock) override {}
  uint64_t StartWaitSync(WorkerId) override { return 0; }
  uint64_t ArriveAtBarrier(WorkerId) override { return 0; }
  bool BarrierReleased(uint64_t) override { return true; }
  void PauseActions(bool) override {}
  bool NothingIncoming() override { return true; }
  void CopyMainRows(std::vector<Key>*, std::vector<std::vector<float>>*) override {}
  void InstallMainRows(std::span<const Key>, std::span<const float>) override {}
  MetricsSnapshot Metrics() override { return {}; }

  int slow_paths = 0;
  int polls = 0;
  std::vector<Key> slow_keys;
};

TEST_CASE("a worker reaches its node only through NodePort", "[worker]") {
  StillRuntime runtime;
  NoParker parker;
  RecordingPort port;
  ParamStore store(ValueLayout(2), nullptr);
  store.With(1, /*create=*/true, [](ParamStore::Entry& e) { e.value[0] = 5; });
  Worker w(port, store, runtime, parker, 0, SamplingOptions{}, 1);
  std::vector<float> out(2);

  const Ticket local = w.Pull(std::vector<Key>{1}, out);
  CHECK(local.id == 0);  // served by the store: no engine call
  CHECK(port.slow_paths == 0);
  CHECK(out[0] == 5);
  CHECK(w.local_accesses() == 1);

  std::vector<float> both(4);
  const Ticket remote = w.Pull(std::vector<Key>{1, 9}, both);
  CHECK(remote.id == 7);
  CHECK(port.slow_paths == 1);
  CHECK(port.slow_keys == std::vector<Key>{9});
  CHECK(w.remote_accesses() == 1);
  REQUIRE(w.Wait(remote).ok());
  CHECK(port.polls == 2);
}

TEST_CASE("StepHeldPair steps two held rows in place and pushes the step where a push would",
          "[worker]") {
  StillRuntime runtime;
  NoParker parker;
  RecordingPort port;
  OptimizerConfig sgd;
  sgd.kind = OptimizerKind::kSgd;
  sgd.learning_rate = 0.5f;
  ParamStore store(ValueLayout(2), nullptr, sgd);
  store.With(1, /*create=*/true, [](ParamStore::Entry& e) { e.value[0] = 4; });
  store.With(2, /*create=*/true, [](ParamStore::Entry& e) { e.value[0] = 8; });
  std::vector<float> zero(2, 0.0f);
  store.Install(3, CopyKind::kReplica, zero.data());
  Worker w(port, store, runtime, parker, 0, SamplingOptions{}, 1);
  // step: each row's first float moves by -lr * 2 (a gradient of 2).
  const auto step = [](float* a, float* b) {
    a[0] -= 0.5f * 2;
    b[0] -= 0.5f * 2;
  };

  SECTION("main copies at the store's rate: the rows as stepped") {
    REQUIRE(w.StepHeldPair(1, 2, 0.5f, step));
    store.With(1, false, [](ParamStore::Entry& e) { CHECK(e.value[0] == 3.0f); });
    store.With(2, false, [](ParamStore::Entry& e) { CHECK(e.value[0] == 7.0f); });
    CHECK(w.local_accesses() == 2);
  }
  SECTION("a replica: the step also lands in its delta, as the gradient a push carries") {
    REQUIRE(w.StepHeldPair(1, 3, 0.5f, step));
    store.With(3, false, [](ParamStore::Entry& e) {
      CHECK(e.value[0] == -1.0f);
      CHECK(e.delta[0] == 2.0f);
      CHECK(e.delta[1] == 0.0f);
    });
  }
  SECTION("a job rate unlike the store's: the store's optimizer applies the gradient") {
    // The job took a step of 0.25 x 2 = 0.5; the store (rate 0.5) applies gradient 2.
    REQUIRE(w.StepHeldPair(1, 2, 0.25f, [](float* a, float*) { a[0] -= 0.25f * 2; }));
    store.With(1, false, [](ParamStore::Entry& e) { CHECK(e.value[0] == 3.0f); });
  }
  SECTION("a key not held here: nothing runs, nothing is counted, no engine call") {
    bool ran = false;
    CHECK_FALSE(w.StepHeldPair(1, 9, 0.5f, [&](float*, float*) { ran = true; }));
    CHECK_FALSE(ran);
    CHECK(w.local_accesses() == 0);
    CHECK(port.slow_paths == 0);
    store.With(1, false, [](ParamStore::Entry& e) { CHECK(e.value[0] == 4.0f); });
  }
}

}  // namespace
}  // namespace augur

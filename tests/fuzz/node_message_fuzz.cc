// Fuzz target: Node::OnMessage with arbitrary core frames from an
// authenticated peer. The first byte picks the node (its rank of
// three, its policy, its optimizer); the rest is a script of steps, each
// [action u8][length u16 LE][bytes]: a frame from the peer (its src field
// set to the peer, so mutations reach the handlers), a sync timer, or a
// worker's pull, push or intent on a key (the node then expects answers).
// Every frame must be handled or refused, never abort; a refused frame must
// leave the node as it was (store, directory, pending operations, nothing
// sent), and ends the script as the runtime drops the peer then. (A bundle
// refused by a handler keeps the messages before the refused one, as
// separate frames would: it is checked for nothing else.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/check.h"
#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/policy/policy.h"
#include "core/protocol/node.h"
#include "core/runtime/checked_mutex.h"

namespace augur {
namespace {

class NoopParker final : public Parker {
 public:
  void Park() override { AUGUR_CHECK(false, "a worker parked in the fuzz harness"); }
  void Unpark() override {}
};

// Counts what the node sends; timers are fired by the script.
class FuzzRuntime final : public Runtime {
 public:
  FuzzRuntime(NodeId self, uint32_t nodes) : self_(self), nodes_(nodes) {}
  NodeId self() const override { return self_; }
  uint32_t num_nodes() const override { return nodes_; }
  void Send(NodeId to, std::vector<uint8_t> frame) override {
    AUGUR_CHECK(to < nodes_, "send to node %u", to);
    Result<FrameHeader> h = DecodeHeader(frame);
    AUGUR_CHECK(h.ok(), "the node sent a frame with a bad header");
    if (h->type == MessageType::kBundle) {
      Result<std::vector<std::span<const uint8_t>>> parts = SplitBundle(frame);
      AUGUR_CHECK(parts.ok(), "the node sent a bundle it cannot split");
      for (std::span<const uint8_t> part : *parts)
        AUGUR_CHECK(Decode(part).ok(), "the node sent a bundled frame it cannot decode");
    } else {
      AUGUR_CHECK(Decode(frame).ok(), "the node sent a frame it cannot decode");
    }
    ++sent;
  }
  size_t MaxFrameBytes() const override { return 1024; }  // small: splits happen
  double Now() override { return 0; }                     // never past a stall limit
  const char* ClockName() const override { return "no"; }
  void Compute(double) override {}
  void SetTimer(double, uint64_t) override {}
  void Fail(const Status& error) override {
    AUGUR_CHECK(false, "the fuzzed node failed: %s", error.message().c_str());
  }
  std::unique_ptr<Mutex> NewMutex() override { return std::make_unique<CheckedMutex>(); }
  std::unique_ptr<Parker> NewParker() override { return std::make_unique<NoopParker>(); }
  uint64_t sent = 0;

 private:
  NodeId self_;
  uint32_t nodes_;
};

// What a refused frame must not change.
struct Fingerprint {
  uint64_t store = 0;
  size_t directory = 0;
  size_t pending = 0;
  uint64_t sent = 0;
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint Take(Node& node, const FuzzRuntime& rt) {
  Fingerprint f;
  node.store().ForEach([&](Key k, ParamStore::Entry& e) {
    uint64_t h = Mix64(k ^ static_cast<uint64_t>(e.kind));
    auto mix = [&](const float* v, size_t n) {
      for (size_t i = 0; v != nullptr && i < n; ++i) {
        uint32_t bits = 0;
        std::memcpy(&bits, v + i, sizeof(bits));
        h = Mix64(h ^ bits);
      }
    };
    mix(e.value, e.length);
    mix(e.delta, node.store().DeltaLength(k));
    f.store += h;  // order-free: stripes iterate in any order
  });
  f.directory = node.DirectoryEntries();
  f.pending = node.PendingOperations();
  f.sent = rt.sent;
  return f;
}

Key KeyFrom(std::span<const uint8_t> b) {
  uint64_t k = 0;
  std::memcpy(&k, b.data(), std::min(b.size(), sizeof(k)));
  return k % 64;  // a few keys, so steps meet the same ones
}

}  // namespace
}  // namespace augur

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace augur;
  if (size < 1) return 0;
  const uint8_t setup = data[0];
  const NodeId self = setup % 3;
  const NodeId peer = (self + 1 + (setup >> 7)) % 3;
  const std::vector<std::string>& policies = PolicyNames();
  NodeOptions o;
  o.workers = 1;
  o.layout = ValueLayout(2);
  o.policy = *MakePolicy(policies[(setup / 3) % policies.size()], {1, 2});
  if (setup & 0x40) o.optimizer.kind = OptimizerKind::kAdaGrad;
  o.act_immediately = true;
  FuzzRuntime rt(self, 3);
  Node node(o, rt);
  Worker& w = node.worker(0);
  std::deque<std::vector<float>> outputs;  // pull buffers live as long as the node
  size_t at = 1;
  while (at + 3 <= size) {
    const uint8_t action = data[at];
    uint16_t len = 0;
    std::memcpy(&len, data + at + 1, sizeof(len));
    at += 3;
    const std::span<const uint8_t> bytes(data + at, std::min<size_t>(len, size - at));
    at += bytes.size();
    switch (action % 5) {
      case 0: {
        std::vector<uint8_t> frame(bytes.begin(), bytes.end());
        if (frame.size() >= 8) std::memcpy(frame.data() + 4, &peer, sizeof(peer));
        const Fingerprint before = Take(node, rt);
        const Status s = node.OnMessage(peer, frame);
        if (s.ok()) break;
        AUGUR_CHECK(s.message().find('\n') == std::string::npos, "a multi-line error: %s",
                    s.message().c_str());
        const bool bundle =
            frame.size() > 3 && frame[3] == static_cast<uint8_t>(MessageType::kBundle);
        AUGUR_CHECK(bundle || Take(node, rt) == before, "a refused frame changed the node: %s",
                    s.message().c_str());
        return 0;  // the runtime drops the peer
      }
      case 1:
        node.OnTimer(1);
        break;
      case 2: {
        const std::vector<Key> keys{KeyFrom(bytes)};
        outputs.emplace_back(2);
        w.Pull(keys, outputs.back());
        break;
      }
      case 3: {
        const std::vector<Key> keys{KeyFrom(bytes)};
        const std::vector<float> up{1.0f, 2.0f};
        w.Push(keys, up);
        break;
      }
      case 4: {
        const std::vector<Key> keys{KeyFrom(bytes)};
        w.Intent(keys, 0, 1 + (action >> 4));
        if (action & 8) w.AdvanceClock();
        break;
      }
    }
  }
  return 0;
}

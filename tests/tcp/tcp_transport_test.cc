// TcpTransport inside one process: frames sent from several threads at once,
// small and large (large enough that the socket takes them in parts, so both
// the direct write from the sending thread and the I/O thread's queue are
// used), arrive complete, intact and in each sender's order, in every
// --wire-security mode. (Also run under ThreadSanitizer.)
#include "backends/tcp/tcp_transport.h"

#include <catch2/catch.hpp>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/codec/codec.h"
#include "tests/tcp/free_port.h"

namespace augur::tcp {
namespace {

constexpr uint32_t kSenders = 2;
constexpr uint32_t kFramesPerSender = 120;
// Float counts: one tiny, one like a pull request, one like a pull response, one of 2 MB.
constexpr size_t kSizes[] = {1, 800, 25600, 1u << 19};

float Pattern(uint32_t sender, uint32_t seq, size_t i) {
  return static_cast<float>((sender * 7919 + seq * 31 + i) % 1000);
}

// Records what arrives: per sender, the next sequence number expected, and
// every mismatch as a line.
class Recorder final : public TcpTransport::Receiver {
 public:
  Status OnData(NodeId from, std::span<const uint8_t> frame) override {
    Result<Message> m = Decode(frame);
    if (!m.ok()) return m.status();
    std::lock_guard<std::mutex> g(mu_);
    if (from != 1 || m->keys.size() != 2 || m->keys[0] >= kSenders) {
      errors_.push_back("unexpected frame");
      return Status::Ok();
    }
    const uint32_t sender = static_cast<uint32_t>(m->keys[0]);
    const uint32_t seq = static_cast<uint32_t>(m->keys[1]);
    if (seq != next_[sender]) {
      errors_.push_back("sender " + std::to_string(sender) + ": got " + std::to_string(seq) +
                        ", expected " + std::to_string(next_[sender]));
    }
    next_[sender] = seq + 1;
    const size_t want = kSizes[seq % std::size(kSizes)];
    bool intact = m->values.size() == want;
    for (size_t i = 0; intact && i < want; ++i) intact = m->values[i] == Pattern(sender, seq, i);
    if (!intact) errors_.push_back("frame " + std::to_string(seq) + " damaged");
    return Status::Ok();
  }
  std::vector<std::string> errors() {
    std::lock_guard<std::mutex> g(mu_);
    return errors_;
  }
  std::vector<uint32_t> next() {
    std::lock_guard<std::mutex> g(mu_);
    return next_;
  }

 private:
  std::mutex mu_;
  std::vector<uint32_t> next_ = std::vector<uint32_t>(kSenders, 0);
  std::vector<std::string> errors_;
};

class Ignore final : public TcpTransport::Receiver {
 public:
  Status OnData(NodeId, std::span<const uint8_t>) override {
    return Status::Error("rank 1 expects no frames");
  }
};

TEST_CASE("frames from several threads arrive whole and in order", "[tcp][transport]") {
  const WireSecurity mode =
      GENERATE(WireSecurity::kAuth, WireSecurity::kEncrypt, WireSecurity::kNone);
  INFO("--wire-security " << WireSecurityName(mode));
  ListeningSocket listener = FreePort();
  const uint16_t port = listener.port();
  Recorder recorder;
  Ignore ignore;
  std::vector<std::unique_ptr<TcpTransport>> transports;
  for (uint32_t r = 0; r < 2; ++r) {
    TcpOptions o;
    o.rank = r;
    o.nodes = 2;
    o.coordinator_port = port;
    if (r == 0) o.coordinator_listen_fd = listener.Release();
    o.cluster_id = "transport-test";
    o.secret = std::vector<uint8_t>(32, 0x17);
    o.peer_timeout_seconds = 60;
    o.wire_security = mode;
    transports.push_back(
        std::make_unique<TcpTransport>(o, r == 0 ? static_cast<TcpTransport::Receiver&>(recorder)
                                                 : static_cast<TcpTransport::Receiver&>(ignore)));
  }
  std::vector<Status> start(2);
  {
    std::vector<std::thread> starters;
    for (uint32_t r = 0; r < 2; ++r)
      starters.emplace_back([&, r] { start[r] = transports[r]->Start(); });
    for (auto& t : starters) t.join();
  }
  for (const Status& s : start) REQUIRE(s.ok());

  std::vector<std::thread> senders;
  for (uint32_t sender = 0; sender < kSenders; ++sender) {
    senders.emplace_back([&, sender] {
      for (uint32_t seq = 0; seq < kFramesPerSender; ++seq) {
        Message m;
        m.type = MessageType::kPushRequest;
        m.src = 1;
        m.origin = 1;
        m.keys = {sender, seq};
        m.values.resize(kSizes[seq % std::size(kSizes)]);
        for (size_t i = 0; i < m.values.size(); ++i) m.values[i] = Pattern(sender, seq, i);
        transports[1]->Send(0, Encode(m));
      }
    });
  }
  for (auto& t : senders) t.join();
  std::vector<Status> finish(2);
  {
    std::vector<std::thread> finishers;
    for (uint32_t r = 0; r < 2; ++r)
      finishers.emplace_back([&, r] { finish[r] = transports[r]->Finish(); });
    for (auto& t : finishers) t.join();
  }
  transports.clear();
  CHECK(finish[0].ok());
  CHECK(finish[1].ok());
  for (const std::string& e : recorder.errors()) FAIL_CHECK(e);
  CHECK(recorder.next() == std::vector<uint32_t>(kSenders, kFramesPerSender));
}

}  // namespace
}  // namespace augur::tcp

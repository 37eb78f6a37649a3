// The TCP transport against a hostile peer. The test owns one end of a
// connection to a real TcpTransport (rank 0 of 2): it runs the handshake as
// rank 1 with the right secret, then injects forged, replayed, modified and
// reordered frames; each is refused and rank 1 reported lost, and no
// injected frame reaches the node. Strangers: a silent connection is dropped
// after --handshake-timeout, a 64 MiB header before authentication is
// refused without the memory, and connections beyond the cap are refused.
// The send side refuses a frame above --max-frame-bytes, naming it.
#include <poll.h>
#include <unistd.h>

#include <asio.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/crypto.h"
#include "backends/tcp/frame_protection.h"
#include "backends/tcp/handshake.h"
#include "backends/tcp/tcp_transport.h"
#include "core/codec/codec.h"
#include "tests/tcp/free_port.h"

namespace augur::tcp {
namespace {

using Clock = std::chrono::steady_clock;
using Tcp = asio::ip::tcp;

class Counter final : public TcpTransport::Receiver {
 public:
  Status OnData(NodeId, std::span<const uint8_t> frame) override {
    Result<Message> m = Decode(frame);
    if (!m.ok()) return m.status();
    std::lock_guard<std::mutex> g(mu_);
    keys_.push_back(m->keys.empty() ? 0 : m->keys[0]);
    return Status::Ok();
  }
  std::vector<Key> keys() {
    std::lock_guard<std::mutex> g(mu_);
    return keys_;
  }

 private:
  std::mutex mu_;
  std::vector<Key> keys_;
};

TcpOptions Options(uint16_t port) {
  TcpOptions o;
  o.rank = 0;
  o.nodes = 2;
  o.coordinator_port = port;
  o.cluster_id = "wire-security-test";
  o.secret = std::vector<uint8_t>(32, 0x5a);
  o.peer_timeout_seconds = 60;
  return o;
}

// Rank 0 under test, started on a thread (Start returns once rank 1 joined).
struct Rank0 {
  explicit Rank0(const TcpOptions& o) : transport(o, counter) {
    starter = std::thread([this] { start = transport.Start(); });
  }
  ~Rank0() {
    transport.Fail(Status::Error("test over"));  // releases Start if rank 1 never joined
    starter.join();
  }
  // The transport's failure once it has one (within `seconds`), else Ok.
  Status AwaitFailure(double seconds) {
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
      if (Status s = transport.failure(); !s.ok()) return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return Status::Ok();
  }
  Counter counter;
  TcpTransport transport;
  Status start;
  std::thread starter;
};

Tcp::socket Connect(asio::io_context& io, uint16_t port) {
  const Tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), port);
  for (int i = 0; i < 200; ++i) {
    Tcp::socket s(io);
    asio::error_code ec;
    s.connect(ep, ec);
    if (!ec) {
      s.set_option(Tcp::no_delay(true));
      return s;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("cannot connect to the transport under test");
  return Tcp::socket(io);
}

// True if the peer closed (EOF or reset) within `seconds`.
bool ClosedWithin(Tcp::socket& s, double seconds) {
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  uint8_t buf[4096];
  while (Clock::now() < end) {
    pollfd p{s.native_handle(), POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    const ssize_t n = ::recv(s.native_handle(), buf, sizeof(buf), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return true;
  }
  return false;
}

std::vector<uint8_t> ReadFrame(Tcp::socket& s, FrameKind* kind) {
  std::array<uint8_t, kTransportHeaderBytes> h;
  asio::read(s, asio::buffer(h));
  Result<TransportHeader> th = DecodeTransportHeader(h, 1 << 20);
  REQUIRE(th.ok());
  *kind = th->kind;
  std::vector<uint8_t> payload(th->payload_length);
  asio::read(s, asio::buffer(payload));
  return payload;
}

// A frame as rank 1 would send it after the handshake.
std::vector<uint8_t> SealedFrame(FrameSealer& sealer, FrameKind kind,
                                 std::vector<uint8_t> payload) {
  const size_t n = payload.size();
  const auto header = EncodeTransportHeader(kind, static_cast<uint32_t>(n + kFrameTagBytes));
  std::vector<uint8_t> out(header.begin(), header.end());
  payload.resize(n + kFrameTagBytes);
  REQUIRE(sealer
              .Seal(header, std::span<uint8_t>(payload.data(), n),
                    std::span<uint8_t, kFrameTagBytes>(payload.data() + n, kFrameTagBytes))
              .ok());
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

std::vector<uint8_t> PushFrame(Key key) {
  Message m;
  m.type = MessageType::kPushRequest;
  m.src = 1;
  m.origin = 1;
  m.keys = {key};
  m.values = {1.f, 2.f, 3.f};
  return Encode(m);
}

// Rank 1 played by the test: authenticated, registered, with its sealer.
struct Impostor {
  Impostor(asio::io_context& io, const TcpOptions& o) : socket(Connect(io, o.coordinator_port)) {
    HandshakeConfig c;
    c.cluster_id = o.cluster_id;
    c.secret = o.secret;
    c.rank = 1;
    c.nodes = 2;
    c.wire_security = o.wire_security;
    const Nonce nonce = RandomNonce();
    asio::write(socket, asio::buffer(EncodeTransportFrame(FrameKind::kHello,
                                                          EncodeHello(MakeHello(c, nonce)))));
    FrameKind kind;
    const std::vector<uint8_t> payload = ReadFrame(socket, &kind);
    REQUIRE(kind == FrameKind::kChallenge);
    Result<Challenge> ch = DecodeChallenge(payload);
    REQUIRE(ch.ok());
    REQUIRE(CheckChallenge(c, nonce, *ch, 0).ok());
    asio::write(socket, asio::buffer(EncodeTransportFrame(FrameKind::kProof,
                                                          EncodeProof(MakeProof(c, nonce, *ch)))));
    const std::vector<uint8_t> reg = EncodeRegister(Register{PeerAddress{"127.0.0.1", 1}});
    if (o.wire_security == WireSecurity::kNone) {
      Send(EncodeTransportFrame(FrameKind::kRegister, reg));
      return;
    }
    Result<FrameKeys> keys = DeriveConnectionKeys(c, 1, 0, nonce, ch->nonce);
    REQUIRE(keys.ok());
    Result<std::unique_ptr<FrameSealer>> s =
        FrameSealer::Create(o.wire_security, keys->dialer_to_acceptor);
    REQUIRE(s.ok());
    sealer = std::move(*s);
    Send(SealedFrame(*sealer, FrameKind::kRegister, reg));
  }
  void Send(const std::vector<uint8_t>& bytes) { asio::write(socket, asio::buffer(bytes)); }
  Tcp::socket socket;
  std::unique_ptr<FrameSealer> sealer;
};

bool WaitForKeys(Counter& c, size_t n) {
  const auto end = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < end && c.keys().size() < n)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return c.keys().size() == n;
}

TEST_CASE("injected frames are refused and the peer reported", "[tcp][security]") {
  const WireSecurity mode = GENERATE(WireSecurity::kEncrypt, WireSecurity::kAuth);
  const std::string attack = GENERATE("forged", "replayed", "modified", "reordered");
  INFO("--wire-security " << WireSecurityName(mode) << ", " << attack << " frame");
  ListeningSocket listener = FreePort();
  TcpOptions o = Options(listener.port());
  o.coordinator_listen_fd = listener.Release();
  o.wire_security = mode;
  asio::io_context io;
  auto node = std::make_unique<Rank0>(o);
  Impostor rank1(io, o);
  const std::vector<uint8_t> good = SealedFrame(*rank1.sealer, FrameKind::kData, PushFrame(7));
  rank1.Send(good);
  REQUIRE(WaitForKeys(node->counter, 1));  // an honest frame gets through
  if (attack == "forged") {
    std::vector<uint8_t> forged = SealedFrame(*rank1.sealer, FrameKind::kData, PushFrame(8));
    std::vector<uint8_t> tag(kFrameTagBytes);
    REQUIRE(RandomBytes(tag).ok());
    std::copy(tag.begin(), tag.end(), forged.end() - kFrameTagBytes);
    rank1.Send(forged);
  } else if (attack == "replayed") {
    rank1.Send(good);
  } else if (attack == "modified") {
    std::vector<uint8_t> changed = SealedFrame(*rank1.sealer, FrameKind::kData, PushFrame(8));
    changed[kTransportHeaderBytes + kHeaderBytes + 20] ^= 0x01;  // inside the core body
    rank1.Send(changed);
  } else {
    const std::vector<uint8_t> second = SealedFrame(*rank1.sealer, FrameKind::kData, PushFrame(8));
    const std::vector<uint8_t> third = SealedFrame(*rank1.sealer, FrameKind::kData, PushFrame(9));
    rank1.Send(third);
    rank1.Send(second);
  }
  const Status failure = node->AwaitFailure(10);
  REQUIRE_FALSE(failure.ok());
  CHECK(failure.message().find("lost rank 1") != std::string::npos);
  CHECK(failure.message().find("failed authentication") != std::string::npos);
  CHECK(ClosedWithin(rank1.socket, 5));
  CHECK(node->counter.keys() == std::vector<Key>{7});
  node.reset();
}

TEST_CASE("with --wire-security none frames are not checked", "[tcp][security]") {
  // The contrast that shows the test above can fail: an unprotected
  // connection takes a frame nobody sealed.
  ListeningSocket listener = FreePort();
  TcpOptions o = Options(listener.port());
  o.coordinator_listen_fd = listener.Release();
  o.wire_security = WireSecurity::kNone;
  asio::io_context io;
  auto node = std::make_unique<Rank0>(o);
  Impostor rank1(io, o);
  rank1.Send(EncodeTransportFrame(FrameKind::kData, PushFrame(5)));
  CHECK(WaitForKeys(node->counter, 1));
  CHECK(node->transport.failure().ok());
  node.reset();
}

TEST_CASE("a mismatched wire security mode is refused in the handshake", "[tcp][security]") {
  HandshakeConfig a, d;
  a.cluster_id = std::string("mode-test");
  d.cluster_id = a.cluster_id;
  a.secret = d.secret = std::vector<uint8_t>(16, 1);
  a.nodes = d.nodes = 2;
  d.rank = 1;
  d.wire_security = WireSecurity::kNone;
  const Status s = CheckHello(a, MakeHello(d, RandomNonce()));
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("--wire-security none") != std::string::npos);
}

TEST_CASE("a silent stranger is dropped after --handshake-timeout", "[tcp][security]") {
  ListeningSocket listener = FreePort();
  TcpOptions o = Options(listener.port());
  o.coordinator_listen_fd = listener.Release();
  o.handshake_timeout_seconds = 0.5;
  asio::io_context io;
  auto node = std::make_unique<Rank0>(o);
  Tcp::socket stranger = Connect(io, o.coordinator_port);
  const auto start = Clock::now();
  CHECK(ClosedWithin(stranger, 5));
  CHECK(Clock::now() - start >= std::chrono::milliseconds(400));
  CHECK(node->transport.failure().ok());  // a stranger never stops the node
  node.reset();
}

size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

TEST_CASE("a 64 MiB header from a stranger leaves RSS flat", "[tcp][security]") {
  ListeningSocket listener = FreePort();
  TcpOptions o = Options(listener.port());
  o.coordinator_listen_fd = listener.Release();
  asio::io_context io;
  auto node = std::make_unique<Rank0>(o);
  std::vector<Tcp::socket> strangers;
  const size_t before = ResidentBytes();
  for (int i = 0; i < 4; ++i) {
    strangers.push_back(Connect(io, o.coordinator_port));
    const auto h = EncodeTransportHeader(FrameKind::kHello, 64u << 20);
    asio::write(strangers.back(), asio::buffer(h));
    // A few payload bytes, so a reader that buffered for the claim would touch its memory.
    asio::write(strangers.back(), asio::buffer(std::vector<uint8_t>(1000, 0x41)));
  }
  for (auto& s : strangers) CHECK(ClosedWithin(s, 5));
  const size_t after = ResidentBytes();
  INFO("RSS before " << before << " after " << after);
  CHECK(after < before + (16u << 20));
  CHECK(node->transport.failure().ok());
  node.reset();
}

TEST_CASE("connections beyond the handshake cap are refused", "[tcp][security]") {
  ListeningSocket listener = FreePort();
  TcpOptions o = Options(listener.port());
  o.coordinator_listen_fd = listener.Release();
  o.max_unauthenticated = 2;
  asio::io_context io;
  auto node = std::make_unique<Rank0>(o);
  Tcp::socket a = Connect(io, o.coordinator_port);
  Tcp::socket b = Connect(io, o.coordinator_port);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // both accepted
  Tcp::socket c = Connect(io, o.coordinator_port);
  CHECK(ClosedWithin(c, 5));
  CHECK_FALSE(ClosedWithin(a, 0.2));
  CHECK_FALSE(ClosedWithin(b, 0.2));
  node.reset();
}

TEST_CASE("the send side refuses a frame above --max-frame-bytes", "[tcp][security]") {
  ListeningSocket listener = FreePort();
  const uint16_t port = listener.port();
  Counter c0, c1;
  std::vector<std::unique_ptr<TcpTransport>> t;
  for (uint32_t r = 0; r < 2; ++r) {
    TcpOptions o = Options(port);
    o.rank = r;
    if (r == 0) o.coordinator_listen_fd = listener.Release();
    o.max_frame_bytes = 4096;
    t.push_back(std::make_unique<TcpTransport>(o, r == 0 ? c0 : c1));
  }
  std::vector<Status> start(2);
  {
    std::thread s0([&] { start[0] = t[0]->Start(); });
    start[1] = t[1]->Start();
    s0.join();
  }
  REQUIRE(start[0].ok());
  REQUIRE(start[1].ok());
  Message m;
  m.type = MessageType::kPullResponse;
  m.values.assign(2000, 1.f);  // 8000 bytes of values
  const std::vector<uint8_t> big = Encode(m);
  t[1]->Send(0, big);
  const Status s = t[1]->failure();
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("pull-response") != std::string::npos);
  CHECK(s.message().find(std::to_string(big.size()) + " bytes") != std::string::npos);
  CHECK(s.message().find("--max-frame-bytes 4096") != std::string::npos);
  t[0]->Fail(Status::Error("test over"));
  t.clear();
  CHECK(c0.keys().empty());
}

}  // namespace
}  // namespace augur::tcp

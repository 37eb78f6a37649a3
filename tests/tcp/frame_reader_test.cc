// FrameReader: whole frames from arbitrary chunking; garbage, oversized and
// truncated input become errors, never crashes or over-reads.
#include "backends/tcp/frame_reader.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "core/codec/codec.h"

namespace augur::tcp {
namespace {

std::vector<uint8_t> DataFrame(uint32_t n_keys) {
  Message m;
  m.type = MessageType::kPushRequest;
  m.src = 1;
  for (uint32_t i = 0; i < n_keys; ++i) {
    m.keys.push_back(i * 7);
    m.values.push_back(static_cast<float>(i));
  }
  const std::vector<uint8_t> core = Encode(m);
  return EncodeTransportFrame(FrameKind::kData, core);
}

void Feed(FrameReader& r, std::span<const uint8_t> bytes) {
  const std::span<uint8_t> space = r.Prepare(bytes.size());
  REQUIRE(space.size() >= bytes.size());
  std::memcpy(space.data(), bytes.data(), bytes.size());
  r.Commit(bytes.size());
}

TEST_CASE("frames survive any chunking", "[tcp][frame]") {
  std::vector<uint8_t> stream;
  std::vector<size_t> sizes;
  for (uint32_t k : {0u, 1u, 5u, 300u}) {
    const std::vector<uint8_t> f = DataFrame(k);
    sizes.push_back(f.size() - kTransportHeaderBytes);
    stream.insert(stream.end(), f.begin(), f.end());
  }
  const std::vector<uint8_t> hb = EncodeTransportFrame(FrameKind::kHeartbeat, {});
  stream.insert(stream.end(), hb.begin(), hb.end());
  const uint64_t seed = 7;
  std::mt19937_64 rng(seed);
  INFO("seed " << seed);
  for (int trial = 0; trial < 50; ++trial) {
    FrameReader r(1 << 20);
    size_t at = 0, got = 0;
    while (at < stream.size()) {
      const size_t n = std::min<size_t>(stream.size() - at, 1 + rng() % 700);
      Feed(r, std::span<const uint8_t>(stream.data() + at, n));
      at += n;
      Frame f;
      for (;;) {
        Result<bool> next = r.Next(&f);
        REQUIRE(next.ok());
        if (!*next) break;
        if (got < sizes.size()) {
          CHECK(f.kind == FrameKind::kData);
          CHECK(f.payload.size() == sizes[got]);
        } else {
          CHECK(f.kind == FrameKind::kHeartbeat);
        }
        ++got;
      }
    }
    CHECK(got == sizes.size() + 1);
    CHECK(r.CheckCleanEof().ok());
  }
}

// Seals `core` (a data frame's payload) into a protected transport frame.
std::vector<uint8_t> SealedFrame(FrameSealer& sealer, const std::vector<uint8_t>& core) {
  const auto h =
      EncodeTransportHeader(FrameKind::kData, static_cast<uint32_t>(core.size() + kFrameTagBytes));
  std::vector<uint8_t> out(h.begin(), h.end());
  out.insert(out.end(), core.begin(), core.end());
  out.resize(out.size() + kFrameTagBytes);
  const std::span<uint8_t> payload(out.data() + kTransportHeaderBytes, core.size());
  REQUIRE(
      sealer
          .Seal(std::span<const uint8_t>(out.data(), kTransportHeaderBytes), payload,
                std::span<uint8_t, kFrameTagBytes>(payload.data() + core.size(), kFrameTagBytes))
          .ok());
  return out;
}

TEST_CASE("protected frames are authenticated piece by piece as they arrive", "[tcp][frame]") {
  const WireSecurity mode = GENERATE(WireSecurity::kAuth, WireSecurity::kEncrypt);
  INFO("mode " << WireSecurityName(mode));
  FrameKey key{};
  key[0] = 9;
  auto sealer = FrameSealer::Create(mode, key);
  REQUIRE(sealer.ok());
  std::vector<std::vector<uint8_t>> cores;
  std::vector<uint8_t> stream;
  for (uint32_t k : {1u, 3000u, 0u, 20000u}) {  // up to 160 KB: read in many pieces
    const std::vector<uint8_t> plain = DataFrame(k);
    cores.emplace_back(plain.begin() + kTransportHeaderBytes, plain.end());
    const std::vector<uint8_t> f = SealedFrame(**sealer, cores.back());
    stream.insert(stream.end(), f.begin(), f.end());
  }
  const bool tamper = GENERATE(false, true);
  // A byte in the middle of the largest frame: caught only at its tag.
  const size_t tampered = stream.size() - kFrameTagBytes - 70000;
  if (tamper) stream[tampered] ^= 0x10;
  std::mt19937_64 rng(11);
  FrameReader r(1 << 20);
  auto opener = FrameOpener::Create(mode, key);
  REQUIRE(opener.ok());
  r.Protect(std::move(*opener));
  size_t at = 0, got = 0;
  bool refused = false;
  while (at < stream.size() && !refused) {
    const size_t n = std::min<size_t>(stream.size() - at, 1 + rng() % 9000);
    Feed(r, std::span<const uint8_t>(stream.data() + at, n));
    at += n;
    Frame f;
    for (;;) {
      Result<bool> next = r.Next(&f);
      if (!next.ok()) {
        CHECK(next.status().message().find("failed authentication") != std::string::npos);
        refused = true;
        break;
      }
      if (!*next) break;
      REQUIRE(got < cores.size());
      CHECK(std::vector<uint8_t>(f.payload.begin(), f.payload.end()) == cores[got]);
      ++got;
    }
  }
  CHECK(refused == tamper);
  CHECK(got == (tamper ? cores.size() - 1 : cores.size()));
  if (tamper) CHECK(at > tampered);  // refused only once the frame was complete
}

TEST_CASE("garbage is refused", "[tcp][frame]") {
  FrameReader r(1 << 20);
  const std::string junk = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  Feed(r, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(junk.data()), junk.size()));
  Frame f;
  Result<bool> next = r.Next(&f);
  REQUIRE_FALSE(next.ok());
  CHECK(next.status().message().find("bad frame magic") != std::string::npos);
}

TEST_CASE("random bytes are refused or framed within bounds, never over-read", "[tcp][frame]") {
  const uint64_t seed = 11;
  std::mt19937_64 rng(seed);
  INFO("seed " << seed);
  int refused = 0;
  for (int trial = 0; trial < 200; ++trial) {
    INFO("trial " << trial);
    FrameReader r(4096);
    std::vector<uint8_t> bytes(rng() % 200);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    if (trial % 2 == 0 && bytes.size() >= 3) {  // valid magic, random rest
      bytes[0] = kTransportMagic & 0xff;
      bytes[1] = kTransportMagic >> 8;
      bytes[2] = static_cast<uint8_t>(FrameKind::kData);
    }
    Feed(r, bytes);
    Frame f;
    size_t framed = 0;  // header + payload bytes of the frames returned
    for (int i = 0; i < 10; ++i) {
      Result<bool> next = r.Next(&f);
      if (!next.ok()) {
        ++refused;
        CHECK_FALSE(next.status().message().empty());  // a reason for the log line
        break;
      }
      if (!*next) break;
      framed += kTransportHeaderBytes + f.payload.size();
      CHECK(framed <= bytes.size());  // nothing beyond what was fed
      if (f.kind == FrameKind::kData) CHECK(DecodeHeader(f.payload).ok());  // its contract
    }
  }
  // Random bytes are mostly not frames: the reader must say so.
  CHECK(refused >= 100);
}

TEST_CASE("oversized frames are refused before buffering", "[tcp][frame]") {
  FrameReader r(1024);
  const auto h = EncodeTransportHeader(FrameKind::kData, 0xFFFFFFF0u);
  Feed(r, h);
  Frame f;
  Result<bool> next = r.Next(&f);
  REQUIRE_FALSE(next.ok());
  CHECK(next.status().message().find("exceeds --max-frame-bytes 1024") != std::string::npos);
}

TEST_CASE("a 64 MiB header before authentication is refused without allocating", "[tcp][frame]") {
  // What a connection uses until the peer authenticates (peer_connection.cc).
  FrameReader r(4096, "the pre-authentication limit of");
  const auto h = EncodeTransportHeader(FrameKind::kHello, 64u << 20);
  Feed(r, h);
  Frame f;
  Result<bool> next = r.Next(&f);
  REQUIRE_FALSE(next.ok());
  CHECK(next.status().message().find("exceeds the pre-authentication limit") != std::string::npos);
  CHECK(r.allocated() < 64 * 1024);
  // Once the limit is raised (after the handshake) the same header is buffered for.
  FrameReader member(kDefaultMaxFrameBytes);
  Feed(member, h);
  REQUIRE(member.Next(&f).ok());
  (void)member.Prepare(16);
  CHECK(member.allocated() >= (64u << 20));
}

TEST_CASE("a data frame must hold one valid core frame", "[tcp][frame]") {
  std::vector<uint8_t> core = Encode(Message{});
  core.push_back(0);  // one stray byte after the core frame
  FrameReader r(1 << 20);
  Feed(r, EncodeTransportFrame(FrameKind::kData, core));
  Frame f;
  Result<bool> next = r.Next(&f);
  REQUIRE_FALSE(next.ok());
  CHECK(next.status().message().find("data frame") != std::string::npos);
}

TEST_CASE("a truncated frame is reported at end of stream", "[tcp][frame]") {
  const std::vector<uint8_t> frame = DataFrame(10);
  FrameReader r(1 << 20);
  Feed(r, std::span<const uint8_t>(frame.data(), frame.size() - 3));
  Frame f;
  Result<bool> next = r.Next(&f);
  REQUIRE(next.ok());
  CHECK_FALSE(*next);
  const Status eof = r.CheckCleanEof();
  REQUIRE_FALSE(eof.ok());
  CHECK(eof.message().find("truncated") != std::string::npos);
}

}  // namespace
}  // namespace augur::tcp

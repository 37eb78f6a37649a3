// Transport frames: the envelope every byte on an Augur TCP connection travels in.
//
// Wire format (little-endian), 8-byte header then payload:
//   magic u16 = 0xA7C1 | kind u8 | reserved u8 (0) | payload_length u32
// Kind kData carries exactly one core frame (core/codec, with its own
// versioned 16-byte header); every other kind is a transport control message
// (handshake, bootstrap, heartbeat, goodbye; see control_messages.h). Keeping
// the envelope separate from the core codec lets the core's wire format change
// without touching the transport. Pure functions; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/status.h"

namespace augur::tcp {

inline constexpr uint16_t kTransportMagic = 0xA7C1;
inline constexpr size_t kTransportHeaderBytes = 8;
// Default --max-frame-bytes: the largest core frame plus its header.
inline constexpr uint32_t kDefaultMaxFrameBytes = (64u << 20) + 16;

enum class FrameKind : uint8_t {
  kHello = 1,      // dialer -> acceptor: version, cluster id, rank, nonce
  kChallenge = 2,  // acceptor -> dialer: its nonce and HMAC proof
  kProof = 3,      // dialer -> acceptor: HMAC proof
  kRegister = 4,   // rank -> coordinator: the address it listens on
  kRoster = 5,     // coordinator -> rank: every rank's address
  kData = 6,       // one core frame
  kHeartbeat = 7,  // liveness while idle
  kGoodbye = 8,    // "my workers are done; I will start no new operations"
  kMaxKind = 8,
};

const char* FrameKindName(FrameKind kind);

struct TransportHeader {
  FrameKind kind = FrameKind::kData;
  uint32_t payload_length = 0;
};

std::array<uint8_t, kTransportHeaderBytes> EncodeTransportHeader(FrameKind kind,
                                                                 uint32_t payload_length);
// Checks magic, kind and the size limit (`limit_name` says which limit in
// the error). Error text names the problem ("bad magic 0x4745 (not an augur peer?)").
Result<TransportHeader> DecodeTransportHeader(std::span<const uint8_t> bytes,
                                              uint32_t max_frame_bytes,
                                              const char* limit_name = "--max-frame-bytes");
// A whole frame (header + payload) in one buffer; for control messages and tests.
std::vector<uint8_t> EncodeTransportFrame(FrameKind kind, std::span<const uint8_t> payload);

}  // namespace augur::tcp

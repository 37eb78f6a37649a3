#include "backends/tcp/transport_frame.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace augur::tcp {

const char* FrameKindName(FrameKind kind) {
  switch (kind) {
    case FrameKind::kHello:
      return "hello";
    case FrameKind::kChallenge:
      return "challenge";
    case FrameKind::kProof:
      return "proof";
    case FrameKind::kRegister:
      return "register";
    case FrameKind::kRoster:
      return "roster";
    case FrameKind::kData:
      return "data";
    case FrameKind::kHeartbeat:
      return "heartbeat";
    case FrameKind::kGoodbye:
      return "goodbye";
  }
  return "unknown";
}

std::array<uint8_t, kTransportHeaderBytes> EncodeTransportHeader(FrameKind kind,
                                                                 uint32_t payload_length) {
  return {static_cast<uint8_t>(kTransportMagic & 0xff),
          static_cast<uint8_t>(kTransportMagic >> 8),
          static_cast<uint8_t>(kind),
          0,
          static_cast<uint8_t>(payload_length),
          static_cast<uint8_t>(payload_length >> 8),
          static_cast<uint8_t>(payload_length >> 16),
          static_cast<uint8_t>(payload_length >> 24)};
}

Result<TransportHeader> DecodeTransportHeader(std::span<const uint8_t> b, uint32_t max_frame_bytes,
                                              const char* limit_name) {
  if (b.size() < kTransportHeaderBytes) {
    return Status::Error("frame header needs " + std::to_string(kTransportHeaderBytes) +
                         " bytes, got " + std::to_string(b.size()));
  }
  const uint16_t magic = static_cast<uint16_t>(b[0] | (b[1] << 8));
  if (magic != kTransportMagic) {
    char text[80];
    std::snprintf(text, sizeof(text), "bad frame magic 0x%04x (not an augur peer?)", magic);
    return Status::Error(text);
  }
  if (b[2] == 0 || b[2] > static_cast<uint8_t>(FrameKind::kMaxKind) || b[3] != 0) {
    return Status::Error("unknown frame kind " + std::to_string(b[2]) + " (flags " +
                         std::to_string(b[3]) + ")");
  }
  TransportHeader h;
  h.kind = static_cast<FrameKind>(b[2]);
  h.payload_length =
      uint32_t{b[4]} | (uint32_t{b[5]} << 8) | (uint32_t{b[6]} << 16) | (uint32_t{b[7]} << 24);
  if (h.payload_length > max_frame_bytes) {
    return Status::Error(std::string(FrameKindName(h.kind)) + " frame of " +
                         std::to_string(h.payload_length) + " bytes exceeds " + limit_name + " " +
                         std::to_string(max_frame_bytes));
  }
  return h;
}

std::vector<uint8_t> EncodeTransportFrame(FrameKind kind, std::span<const uint8_t> payload) {
  const auto header = EncodeTransportHeader(kind, static_cast<uint32_t>(payload.size()));
  std::vector<uint8_t> out(kTransportHeaderBytes + payload.size());
  std::memcpy(out.data(), header.data(), kTransportHeaderBytes);
  if (!payload.empty())
    std::memcpy(out.data() + kTransportHeaderBytes, payload.data(), payload.size());
  return out;
}

}  // namespace augur::tcp

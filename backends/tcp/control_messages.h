// Control messages: the payloads of the transport's non-data frames.
//
// Handshake (see handshake.h): Hello, Challenge, Proof. Bootstrap (see
// bootstrap.h): Register, Roster. Heartbeat and Goodbye have empty payloads.
// Encoding is little-endian with explicit lengths; decoding checks every
// length against the bytes present and returns an error naming the field.
// Plain values and pure functions; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur::tcp {

// Version of the transport protocol (envelope, control messages, handshake).
// 2: hello carries the wire security mode; frames after the handshake are protected.
inline constexpr uint16_t kTransportVersion = 2;

using Nonce = std::array<uint8_t, 32>;
using Mac = std::array<uint8_t, 32>;

struct Hello {
  uint16_t transport_version = kTransportVersion;
  uint8_t core_wire_version = 0;  // core/codec kWireVersion of the sender
  uint32_t rank = 0;              // sender's rank
  uint32_t nodes = 0;             // cluster size the sender was started with
  std::string cluster_id;
  uint8_t wire_security = 0;  // WireSecurity (frame_protection.h) the sender requires
  Nonce nonce{};
};

struct Challenge {
  uint32_t rank = 0;  // acceptor's rank
  Nonce nonce{};
  Mac mac{};  // acceptor's proof of the secret, bound to both nonces
};

struct Proof {
  Mac mac{};  // dialer's proof of the secret, bound to both nonces
};

struct PeerAddress {
  std::string host;
  uint16_t port = 0;
  bool operator==(const PeerAddress&) const = default;
};

struct Register {
  PeerAddress listen;  // where the sender accepts connections from higher ranks
};

struct Roster {
  std::vector<PeerAddress> ranks;  // index = rank
};

std::vector<uint8_t> EncodeHello(const Hello& m);
std::vector<uint8_t> EncodeChallenge(const Challenge& m);
std::vector<uint8_t> EncodeProof(const Proof& m);
std::vector<uint8_t> EncodeRegister(const Register& m);
std::vector<uint8_t> EncodeRoster(const Roster& m);

Result<Hello> DecodeHello(std::span<const uint8_t> payload);
Result<Challenge> DecodeChallenge(std::span<const uint8_t> payload);
Result<Proof> DecodeProof(std::span<const uint8_t> payload);
Result<Register> DecodeRegister(std::span<const uint8_t> payload);
Result<Roster> DecodeRoster(std::span<const uint8_t> payload, uint32_t max_ranks);

}  // namespace augur::tcp

// Handshake: mutual authentication of a new connection by HMAC-SHA256 over
// the cluster's shared secret (libcrypto, crypto.h).
//
//   dialer   -> acceptor  Hello     {version, core wire version, rank, nodes, cluster id,
//                                    wire security, nonce_d}
//   acceptor -> dialer    Challenge {rank, nonce_a, HMAC(secret, "acceptor" | ids | nonces)}
//   dialer   -> acceptor  Proof     {HMAC(secret, "dialer" | ids | nonces)}
// Both proofs are bound to both fresh nonces, so a recorded handshake cannot
// be replayed, and the secret itself never crosses the wire. The proofs also
// cover the wire security mode, so it cannot be downgraded on the path. No
// frame other than these is accepted before the handshake completes, and
// none longer than kMaxHandshakeFrameBytes. Every later frame is protected
// with keys derived from the secret and both nonces (frame_protection.h).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/frame_protection.h"
#include "core/base/status.h"

namespace augur::tcp {

struct HandshakeConfig {
  std::string cluster_id;
  std::vector<uint8_t> secret;  // never logged
  uint32_t rank = 0;
  uint32_t nodes = 0;
  WireSecurity wire_security = kDefaultWireSecurity;
};

// Largest frame accepted before the handshake completes: a hello (with a
// cluster id of at most 255 bytes), challenge or proof is far smaller.
inline constexpr uint32_t kMaxHandshakeFrameBytes = 4096;

// 32 bytes from the CSPRNG (aborts if the system has none: no safe fallback).

Nonce RandomNonce();
// The keys of the connection this handshake established.
Result<FrameKeys> DeriveConnectionKeys(const HandshakeConfig& c, uint32_t dialer_rank,
                                       uint32_t acceptor_rank, const Nonce& dialer_nonce,
                                       const Nonce& acceptor_nonce);
Hello MakeHello(const HandshakeConfig& c, const Nonce& nonce);
// Acceptor side: checks the peer's Hello (versions, cluster id, size, rank).
Status CheckHello(const HandshakeConfig& c, const Hello& hello);
Challenge MakeChallenge(const HandshakeConfig& c, const Hello& hello, const Nonce& nonce);
// Dialer side: verifies the acceptor's proof; expected_rank < 0 accepts any rank.
Status CheckChallenge(const HandshakeConfig& c, const Nonce& my_nonce, const Challenge& ch,
                      int64_t expected_rank);
Proof MakeProof(const HandshakeConfig& c, const Nonce& my_nonce, const Challenge& ch);
// Acceptor side: verifies the dialer's proof.
Status CheckProof(const HandshakeConfig& c, const Hello& hello, const Nonce& my_nonce,
                  const Proof& proof);

// Reads a shared secret (at least 16 bytes; trailing whitespace ignored).
// Errors name the path but never the content.
Result<std::vector<uint8_t>> LoadSecret(const std::string& path);
// Writes 32 random bytes as hex to a new file `path`, created with mode 0600
// (O_CREAT|O_EXCL: never an existing file, never readable by others, not
// even for a moment). An existing `path` is an error.
Status GenerateSecretFile(const std::string& path);

}  // namespace augur::tcp

// Handshake: mutual authentication of a new connection by HMAC-SHA256 over
// the cluster's shared secret.
//
//   dialer   -> acceptor  Hello     {version, core wire version, rank, nodes, cluster id, nonce_d}
//   acceptor -> dialer    Challenge {rank, nonce_a, HMAC(secret, "acceptor" | ids | nonces)}
//   dialer   -> acceptor  Proof     {HMAC(secret, "dialer" | ids | nonces)}
// Both proofs are bound to both fresh nonces, so a recorded handshake cannot
// be replayed, and the secret itself never crosses the wire. No frame other
// than these is accepted before the handshake completes. (Authentication
// only: frames are not encrypted; run on a trusted network.)
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/tcp/control_messages.h"
#include "core/base/status.h"

namespace augur::tcp {

struct HandshakeConfig {
  std::string cluster_id;
  std::vector<uint8_t> secret;  // never logged
  uint32_t rank = 0;
  uint32_t nodes = 0;
};

Nonce RandomNonce();
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
// Writes 32 random bytes as hex to `path` with mode 0600.
Status GenerateSecretFile(const std::string& path);

}  // namespace augur::tcp

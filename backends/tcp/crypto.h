// Crypto: the few primitives the TCP backend needs, from OpenSSL 3's libcrypto.
//
// HMAC-SHA256 (handshake proofs), HKDF-SHA256 (per-connection keys), the
// system CSPRNG (nonces, secrets) and a constant-time compare. Nothing here
// is implemented by hand: every function is a thin wrapper over libcrypto
// that turns its error queue into a Status. Pure functions; thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur::tcp {

using Digest = std::array<uint8_t, 32>;

Digest Sha256Of(std::span<const uint8_t> data);
Digest HmacSha256(std::span<const uint8_t> key, std::span<const uint8_t> message);
// HKDF-SHA256 (RFC 5869): extract with `salt`, expand with `info` to `out.size()` bytes.
Status HkdfSha256(std::span<const uint8_t> secret, std::span<const uint8_t> salt,
                  std::span<const uint8_t> info, std::span<uint8_t> out);
// Fills `out` from OpenSSL's CSPRNG (RAND_bytes, seeded from getrandom).
Status RandomBytes(std::span<uint8_t> out);
// Compares without an early exit (CRYPTO_memcmp); different sizes are unequal.
bool ConstantTimeEqual(std::span<const uint8_t> a, std::span<const uint8_t> b);
std::string ToHex(std::span<const uint8_t> bytes);
// The reason libcrypto gave for its last failure ("no reason given" if none).
std::string OpensslError();

}  // namespace augur::tcp

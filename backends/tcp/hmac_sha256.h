// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), used to authenticate the
// cluster handshake against the shared secret.
//
// Small, dependency-free and tested against the FIPS/RFC 4231 vectors
// (tests/tcp/hmac_sha256_test.cc). Not constant-time beyond what a MAC check
// needs (ConstantTimeEqual). Plain values: each object is used by one thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace augur::tcp {

using Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void Update(std::span<const uint8_t> data);
  void Update(const std::string& text);
  // Finishes the hash; the object must not be updated afterwards.
  Digest Final();

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

Digest Sha256Of(std::span<const uint8_t> data);
Digest HmacSha256(std::span<const uint8_t> key, std::span<const uint8_t> message);
// Compares without an early exit, so timing does not reveal the mismatch position.
bool ConstantTimeEqual(std::span<const uint8_t> a, std::span<const uint8_t> b);
std::string ToHex(std::span<const uint8_t> bytes);

}  // namespace augur::tcp

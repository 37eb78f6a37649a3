// Frame protection: an AEAD over every transport frame after the handshake.
//
// Each connection has two keys, one per direction, derived by HKDF-SHA256
// from the cluster secret, salted with both handshake nonces (so every
// connection has fresh keys) and bound to the cluster, both ranks and the
// mode (DeriveFrameKeys). Each direction counts its frames from 0; the count
// is the AEAD nonce (4 zero bytes | u64 little-endian), never sent and never
// reused under one key. So a frame that was injected, modified, replayed,
// reordered or dropped fails its tag, and a cut-off stream is caught by the
// (authenticated) goodbye it lacks.
//
// A protected frame is the 8-byte envelope (transport_frame.h) whose length
// counts payload + 16-byte tag, then the payload, then the tag. The envelope
// is always authenticated (additional data). Modes (--wire-security):
//   encrypt  payload encrypted and authenticated (AES-256-GCM)
//   auth     payload authenticated only: AES-256-GCM with the payload as
//            additional data and no plaintext, i.e. GMAC (readable, not
//            alterable); the cheaper MAC here (frame_protection.cc)
//   none     no protection after the handshake (benchmarks only)
// One sealer per sending direction and one opener per receiving direction;
// each is used by one thread at a time (its owner serialises calls).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "backends/tcp/control_messages.h"
#include "core/base/status.h"

namespace augur::tcp {

enum class WireSecurity : uint8_t { kNone = 0, kAuth = 1, kEncrypt = 2 };
// auth by measurement (augur bench-net; README.md "Security"): it costs
// about a third of what encrypt costs on large frames.
inline constexpr WireSecurity kDefaultWireSecurity = WireSecurity::kAuth;
inline constexpr size_t kFrameTagBytes = 16;

const char* WireSecurityName(WireSecurity mode);
// "auth", "encrypt" or "none"; the error lists the choices.
Result<WireSecurity> ParseWireSecurity(const std::string& text);

using FrameKey = std::array<uint8_t, 32>;
struct FrameKeys {
  FrameKey dialer_to_acceptor{};
  FrameKey acceptor_to_dialer{};
};

struct FrameKeyContext {
  std::span<const uint8_t> secret;
  std::string cluster_id;
  uint32_t dialer_rank = 0;
  uint32_t acceptor_rank = 0;
  uint32_t nodes = 0;
  WireSecurity mode = kDefaultWireSecurity;
};
Result<FrameKeys> DeriveFrameKeys(const FrameKeyContext& c, const Nonce& dialer_nonce,
                                  const Nonce& acceptor_nonce);

class FrameCipher {
 public:
  ~FrameCipher();
  FrameCipher(const FrameCipher&) = delete;
  FrameCipher& operator=(const FrameCipher&) = delete;
  uint64_t frames() const { return sequence_; }
  WireSecurity mode() const { return mode_; }

 protected:
  FrameCipher(WireSecurity mode, bool seal);
  Status Init(const FrameKey& key);
  void NextNonce(std::array<uint8_t, 12>* nonce);

  const WireSecurity mode_;
  const bool seal_;
  void* ctx_ = nullptr;  // EVP_CIPHER_CTX, kept out of this header
  uint64_t sequence_ = 0;
};

// Sending side of one direction.
class FrameSealer final : public FrameCipher {
 public:
  // REQUIRES: mode != kNone.
  static Result<std::unique_ptr<FrameSealer>> Create(WireSecurity mode, const FrameKey& key);
  // `header` is the envelope (its length already counts the tag); `payload`
  // is encrypted in place under kEncrypt; the tag is written to `tag`.
  Status Seal(std::span<const uint8_t> header, std::span<uint8_t> payload,
              std::span<uint8_t, kFrameTagBytes> tag);

 private:
  explicit FrameSealer(WireSecurity mode) : FrameCipher(mode, true) {}
};

// Receiving side of one direction.
class FrameOpener final : public FrameCipher {
 public:
  static Result<std::unique_ptr<FrameOpener>> Create(WireSecurity mode, const FrameKey& key);
  // `sealed` is payload + tag; on success the payload (decrypted in place
  // under kEncrypt) is its first sealed.size() - 16 bytes. On failure the
  // frame must be refused: the error names the frame's position.
  Status Open(std::span<const uint8_t> header, std::span<uint8_t> sealed);

  // The same in steps, for a frame that arrives in pieces: Begin with its
  // header, Absorb its payload in order as it arrives (decrypted in place
  // under kEncrypt), then Finish with its tag. Nothing absorbed may be used
  // before Finish succeeds; any error ends the stream (drop the connection).
  Status Begin(std::span<const uint8_t> header);
  Status Absorb(std::span<uint8_t> payload_part);
  Status Finish(std::span<const uint8_t, kFrameTagBytes> tag);
  bool opening() const { return opening_; }

 private:
  explicit FrameOpener(WireSecurity mode) : FrameCipher(mode, false) {}
  Status Failed(const char* step);

  bool opening_ = false;  // between Begin and Finish
};

}  // namespace augur::tcp

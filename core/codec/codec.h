// Codec: Message <-> bytes, with a versioned fixed-size header.
//
// Wire format (little-endian):
//   header (16 bytes): magic u16 = 0xA6A6 | version u8 | type u8 | src u32 |
//                      body_length u32 | reserved u32 (0)
//   body: origin u32 | aux u32 | op_id u64 |
//         n_keys u32 | keys u64[n] | n_slots u32 | slots u32[n] | n_values u32 | values f32[n]
// Decoding never reads outside the given buffer: every count is checked
// against the bytes that remain, and a malformed buffer yields an error Status
// naming the problem. Stateless and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/status.h"
#include "core/codec/message.h"

namespace augur {

inline constexpr uint16_t kWireMagic = 0xA6A6;
inline constexpr uint8_t kWireVersion = 1;
inline constexpr size_t kHeaderBytes = 16;
// Largest body a peer may send; larger frames are refused before allocation.
inline constexpr uint32_t kMaxBodyBytes = 64u << 20;

struct FrameHeader {
  uint8_t version = kWireVersion;
  MessageType type = MessageType::kPullRequest;
  NodeId src = 0;
  uint32_t body_length = 0;
};

size_t EncodedSize(const Message& m);
std::vector<uint8_t> Encode(const Message& m);
void EncodeTo(const Message& m, std::vector<uint8_t>* out);  // appends

// Validates magic, version, type and the body-length limit.
// REQUIRES: bytes.size() >= kHeaderBytes (else an error is returned).
Result<FrameHeader> DecodeHeader(std::span<const uint8_t> bytes);
// Decodes one whole frame (header + body, nothing more); a bundle is an error.
Result<Message> Decode(std::span<const uint8_t> frame);

// A frame decoded without copying its values: `message` has every field but
// `values` (left empty); `value_bytes` are the values' n * sizeof(float) bytes
// inside the decoded frame (valid while it is; not aligned: read with memcpy).
struct FrameView {
  Message message;
  std::span<const uint8_t> value_bytes;
  size_t value_count() const { return value_bytes.size() / sizeof(float); }
};
// Decode with the same checks, for a receiver that copies large values once,
// straight to where they go (a pull response into the worker's buffer).
Result<FrameView> DecodeView(std::span<const uint8_t> frame);

// A bundle: one frame (type MessageType::kBundle, this header format) whose
// body is whole frames for the same node, back to back. A node sends what
// one engine call built for one peer as one frame, so the receiver pays one
// read and one wake-up for all of it; the frames inside keep their order.
// Appends the bundle of `messages` (all from src) to out.
void EncodeBundle(NodeId src, std::span<const Message* const> messages, std::vector<uint8_t>* out);
inline size_t EncodedBundleSize(size_t frames_bytes) { return kHeaderBytes + frames_bytes; }
// The frames a bundle carries, in order (views into `frame`). Checks the
// bundle's header and length, that it carries at least one frame, that every
// frame's header is valid, fits and is from the bundle's sender, and that
// none is itself a bundle; the frames' bodies are decoded by the caller.
Result<std::vector<std::span<const uint8_t>>> SplitBundle(std::span<const uint8_t> frame);

}  // namespace augur

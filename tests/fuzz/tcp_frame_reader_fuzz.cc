// Fuzz target: the TCP transport's frame reader (backends/tcp FrameReader)
// and the control-message decoders behind it. The first input byte picks the
// read chunk size, the rest is the byte stream a peer sends; every frame the
// reader yields is decoded by its kind. Must never crash, read out of bounds
// or allocate beyond the frame limit.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/frame_reader.h"
#include "core/codec/codec.h"

namespace {

constexpr uint32_t kMaxFrameBytes = 1u << 20;  // small, so the fuzzer reaches the limit

void DecodeFrame(const augur::tcp::Frame& f) {
  using augur::tcp::FrameKind;
  switch (f.kind) {
    case FrameKind::kHello:
      (void)augur::tcp::DecodeHello(f.payload);
      break;
    case FrameKind::kChallenge:
      (void)augur::tcp::DecodeChallenge(f.payload);
      break;
    case FrameKind::kProof:
      (void)augur::tcp::DecodeProof(f.payload);
      break;
    case FrameKind::kRegister:
      (void)augur::tcp::DecodeRegister(f.payload);
      break;
    case FrameKind::kRoster:
      (void)augur::tcp::DecodeRoster(f.payload, 64);
      break;
    case FrameKind::kData:
      (void)augur::Decode(f.payload);
      break;
    default:
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 64;
  std::span<const uint8_t> stream(data + 1, size - 1);
  augur::tcp::FrameReader reader(kMaxFrameBytes);
  while (!stream.empty()) {
    const std::span<uint8_t> space = reader.Prepare(chunk);
    const size_t n = std::min({chunk, space.size(), stream.size()});
    std::memcpy(space.data(), stream.data(), n);
    reader.Commit(n);
    stream = stream.subspan(n);
    for (;;) {
      augur::tcp::Frame f;
      augur::Result<bool> got = reader.Next(&f);
      if (!got.ok()) return 0;  // malformed stream: the connection would be dropped
      if (!*got) break;
      DecodeFrame(f);
    }
  }
  (void)reader.CheckCleanEof();
  return 0;
}

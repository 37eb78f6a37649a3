// Fuzz target: the core frame decoder (core/codec). Any input must decode to
// a Message or an error Status, never read out of bounds; a decoded message
// must re-encode to EncodedSize() bytes that decode to the same bytes again.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/base/check.h"
#include "core/codec/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  augur::Result<augur::FrameHeader> header = augur::DecodeHeader(bytes);
  augur::Result<augur::Message> m = augur::Decode(bytes);
  if (!m.ok()) return 0;
  AUGUR_CHECK(header.ok(), "Decode accepted a frame whose header DecodeHeader refuses");
  const std::vector<uint8_t> again = augur::Encode(*m);
  AUGUR_CHECK(again.size() == augur::EncodedSize(*m), "EncodedSize %zu != Encode size %zu",
              augur::EncodedSize(*m), again.size());
  augur::Result<augur::Message> m2 = augur::Decode(again);
  AUGUR_CHECK(m2.ok(), "re-encoded frame does not decode: %s", m2.status().message().c_str());
  AUGUR_CHECK(augur::Encode(*m2) == again, "decode/encode is not a fixed point");
  return 0;
}

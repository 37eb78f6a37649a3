#include "core/protocol/message_split.h"

#include "core/base/check.h"
#include "core/codec/codec.h"

namespace augur {

bool AuxCountsKeys(MessageType type) {
  return type == MessageType::kSyncResponse || type == MessageType::kPushAck ||
         type == MessageType::kSetAck;
}

std::vector<Message> SplitByKeys(const Message& m, size_t max_bytes,
                                 const std::function<uint32_t(size_t)>& values_of) {
  const bool slots = !m.slots.empty();
  AUGUR_CHECK(!slots || m.slots.size() == m.keys.size(), "%s: %zu slots for %zu keys",
              MessageTypeName(m.type), m.slots.size(), m.keys.size());
  std::vector<Message> parts;
  auto start_part = [&] {
    Message p;
    p.type = m.type;
    p.src = m.src;
    p.origin = m.origin;
    p.op_id = m.op_id;
    p.aux = parts.empty() || !AuxCountsKeys(m.type) ? m.aux : 0;
    parts.push_back(std::move(p));
  };
  start_part();
  size_t at = 0;  // next value of m
  for (size_t i = 0; i < m.keys.size(); ++i) {
    const uint32_t n = values_of(i);
    AUGUR_CHECK(at + n <= m.values.size(), "%s: key %zu's values run past the message",
                MessageTypeName(m.type), i);
    const size_t key_bytes = sizeof(Key) + (slots ? sizeof(uint32_t) : 0) + n * sizeof(float);
    if (!parts.back().keys.empty() && EncodedSize(parts.back()) + key_bytes > max_bytes)
      start_part();
    Message& p = parts.back();
    p.keys.push_back(m.keys[i]);
    if (slots) p.slots.push_back(m.slots[i]);
    p.values.insert(p.values.end(), m.values.begin() + at, m.values.begin() + at + n);
    at += n;
  }
  AUGUR_CHECK(at == m.values.size(), "%s: %zu values after the last key", MessageTypeName(m.type),
              m.values.size() - at);
  return parts;
}

}  // namespace augur

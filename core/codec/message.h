// Message: the one in-memory shape of every protocol message.
//
// All messages share a fixed set of fields plus three arrays, which keeps the
// codec small and every message type encodable by the same code. What each
// field means per type is documented on MessageType. Plain value type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace augur {

enum class MessageType : uint8_t {
  // keys: requested keys; slots: float offset of each key in the requester's
  // output buffer; op_id: the requester's operation; origin: the requester.
  kPullRequest = 1,
  // slots + values answer a kPullRequest (values in slot order, lengths by layout).
  kPullResponse = 2,
  // keys + values: additive updates; answered by kPushAck with aux = keys applied.
  kPushRequest = 3,
  kPushAck = 4,
  // keys + values: overwrite; answered by kSetAck with aux = keys applied.
  kSetRequest = 5,
  kSetAck = 6,
  // aux: barrier generation. Arrive goes to node 0, Release comes from it.
  kBarrierArrive = 7,
  kBarrierRelease = 8,
  kMaxType = 8,
};

const char* MessageTypeName(MessageType type);

struct Message {
  MessageType type = MessageType::kPullRequest;
  NodeId src = 0;      // sender node
  NodeId origin = 0;   // node that started the operation
  uint64_t op_id = 0;  // origin's operation id
  uint32_t aux = 0;    // per-type small integer (count, generation)
  std::vector<Key> keys;
  std::vector<uint32_t> slots;
  std::vector<float> values;

  bool operator==(const Message&) const = default;
};

}  // namespace augur

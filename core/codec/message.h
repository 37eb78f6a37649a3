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
  // Requests (pull/push/set/localize/sync) may be forwarded: origin stays the
  // node that started the operation, src is the last hop. aux bit 0 (kViaHome)
  // marks a request the key's home node routed to the owner it recorded.
  //
  // keys: requested keys; slots: float offset of each key in the requester's
  // output buffer; op_id: the requester's operation; origin: the requester.
  kPullRequest = 1,
  // slots + values answer a kPullRequest (values in slot order, lengths by layout).
  kPullResponse = 2,
  // keys + values: updates, a delta per key (ParamStore::DeltaLength: the
  // summed updates and, with AdaGrad, their summed squares); answered by
  // kPushAck with aux = keys applied.
  kPushRequest = 3,
  kPushAck = 4,
  // keys + values: overwrite; answered by kSetAck with aux = keys applied.
  kSetRequest = 5,
  kSetAck = 6,
  // aux: barrier generation. Arrive goes to node 0, Release comes from it.
  kBarrierArrive = 7,
  kBarrierRelease = 8,
  // keys: keys the origin wants local (intent, or a static replica). Routed
  // like a request to the main copy, whose node answers with kHandover or
  // kReplicaGrant (REFERENCE §2.3, §2.6).
  kLocalizeRequest = 9,
  // keys + values (rows: value and optimizer state): the main copies move to
  // the receiver. op_id: a sync operation this completes (0 if none).
  kHandover = 10,
  // keys; aux: the new owner. Old owner -> home: update the directory.
  kOwnerUpdate = 11,
  // keys + values (rows): replicas for the receiver.
  kReplicaGrant = 12,
  // keys + values (replica deltas, a row's length each: AccumulateDelta);
  // slots: per-key sync version, with
  // kDropBit set when the holder drops the replica after this flush, and
  // kNoDeltaBit when the delta is zero: that key carries no values (a poll).
  kSyncRequest = 13,
  // keys + values (fresh rows) for kept replicas whose main copy changed
  // since the holder last got its row; aux: the other keys acknowledged
  // (dropped, or unchanged).
  kSyncResponse = 14,
  kLastMessage = 14,  // the last type a Message may have
  // Not a message: a frame whose body is several whole frames for the same
  // node, back to back (codec.h, EncodeBundle / SplitBundle).
  kBundle = 15,
  kMaxType = 15,
};

inline constexpr uint32_t kViaHome = 1;
inline constexpr uint32_t kDropBit = 0x80000000u;
inline constexpr uint32_t kNoDeltaBit = 0x40000000u;
// The sync version: the slot's bits below the flags (30-bit serial numbers).
inline constexpr uint32_t kSyncVersionMask = kNoDeltaBit - 1;
// Whether a kSyncRequest key with this slot carries a delta (values).
inline constexpr bool SyncCarriesDelta(uint32_t slot) { return (slot & kNoDeltaBit) == 0; }

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

// KeyRequest: one key of a request, as the engine routes it.
//
// A worker's operation or a received request is split into one KeyRequest
// per key; Routing applies it where the key's main copy (or, for a local
// pull or push, a replica) is, queues it while the key is on its way here
// (Relocation), or forwards it. Plain data: owned by whoever holds it.
//
// Its values (a push's delta, a set's value, a sync's delta) are borrowed
// from the operation or message being handled: applied or forwarded within
// that call, they are never copied. One that outlives the call (queued for
// a key in transfer) must Own() them first. Move-only, so a borrowed view
// is never duplicated by accident.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/types.h"
#include "core/codec/message.h"

namespace augur {

struct KeyRequest {
  KeyRequest(MessageType t, NodeId from, uint64_t op, uint32_t s, std::span<const float> v = {})
      : type(t), origin(from), op_id(op), slot(s), values(v) {}
  KeyRequest(KeyRequest&&) = default;  // a vector's move keeps its buffer: `values` stays valid
  KeyRequest& operator=(KeyRequest&&) = default;
  KeyRequest(const KeyRequest&) = delete;
  KeyRequest& operator=(const KeyRequest&) = delete;

  // Copies borrowed values into the request itself (idempotent).
  void Own() {
    if (values.empty() || values.data() == owned_.data()) return;
    owned_.assign(values.begin(), values.end());
    values = owned_;
  }

  MessageType type;
  NodeId origin;                  // the node whose operation it is
  uint64_t op_id;                 // that node's operation id (0: none, e.g. a localize request)
  uint32_t slot;                  // pull: output offset; sync: version | kDropBit | kNoDeltaBit
  std::span<const float> values;  // borrowed until Own()

 private:
  std::vector<float> owned_;
};

}  // namespace augur

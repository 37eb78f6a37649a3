// KeyRequest: one key of a request, as the engine routes it.
//
// A worker's operation or a received request is split into one KeyRequest
// per key; Routing applies it where the key's main copy (or, for a local
// pull or push, a replica) is, queues it while the key is on its way here
// (Relocation), or forwards it. Plain data: owned by whoever holds it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/types.h"
#include "core/codec/message.h"

namespace augur {

struct KeyRequest {
  MessageType type;
  NodeId origin;   // the node whose operation it is
  uint64_t op_id;  // that node's operation id (0: none, e.g. a localize request)
  uint32_t slot;   // pull: output offset; sync: version | kDropBit | kNoDeltaBit
  std::vector<float> values;
};

}  // namespace augur

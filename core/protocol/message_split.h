// SplitByKeys: one protocol message too large for a frame, as several.
//
// Every message type that can grow large (requests, pull responses,
// hand-overs, owner updates, replica grants, sync requests and responses)
// carries its keys independently: a receiver applies each key (with its slot
// and values) on its own, and an operation completes by counting its keys,
// wherever they arrive from and in however many frames. So a message splits
// into consecutive runs of keys, each with its slots and values, the other
// fields copied. A count in aux (a sync response's acknowledged keys) goes
// with the first part only. No end marker is needed: the requester's pending
// operation waits for its key count, not for a last frame. A flow-controlled
// timer round likewise ends when all its keys are answered.
// Pure function; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/codec/message.h"

namespace augur {

// Whether aux counts keys (so only one part may carry it).
bool AuxCountsKeys(MessageType type);

// Splits `m` into parts whose EncodedSize is at most `max_bytes`, in key
// order, keys in the same order as in m. `values_of(i)`: the number of floats
// key i carries in m.values. A key that does not fit a frame alone travels
// alone (its part is larger than max_bytes: the transport refuses it, naming
// its type and size). REQUIRES: m's values are the keys' values, in order.
std::vector<Message> SplitByKeys(const Message& m, size_t max_bytes,
                                 const std::function<uint32_t(size_t)>& values_of);

}  // namespace augur

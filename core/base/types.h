// Basic identifiers shared by the whole core.
#pragma once

#include <cstdint>

namespace augur {

using Key = uint64_t;       // any 64-bit value; no dense-range requirement
using NodeId = uint32_t;    // 0 .. nodes-1
using WorkerId = uint32_t;  // worker index within its node
using Clock = int64_t;      // a worker's logical clock (AdvanceClock)

// Identifies one asynchronous operation; id 0 means "already complete".
struct Ticket {
  uint64_t id = 0;
};

}  // namespace augur

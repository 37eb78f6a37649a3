// BlockSchedule: parameter blocking for matrix factorization (`--partition
// block`; DSGD, as Lapse and AdaPM cluster MF data).
//
// Every item is a matrix cell with exactly two keys: its row key first, its
// column key second. Rows are split into P row groups and columns into P
// column blocks, each balanced by the number of cells (largest first, each
// to the lightest group). Worker g trains the cells of row group g, in P
// sub-epochs: in sub-epoch s it trains the cells whose column is in block
// (g + s) mod P. So at any sub-epoch every column block is used by exactly
// one worker, and block b moves from worker g+1 to worker g between
// sub-epochs: relocation on intent keeps every access local, with no
// replicas except where workers drift apart at a sub-epoch boundary.
// Within a sub-epoch the cells come in a seeded random order.
// Threading: pure function over values.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/status.h"
#include "experiments/partition/graph_partitioner.h"

namespace augur {

struct BlockPlan {
  std::vector<std::vector<uint32_t>> order;  // per worker: item indices in training order
  std::vector<uint32_t> row_group;           // per key: the worker of a row key
  std::vector<uint32_t> col_block;           // per key: the block of a column key
};

// Error if an item does not have exactly two keys.
Result<BlockPlan> BlockSchedule(const ItemKeys& items, uint32_t parts, uint64_t seed);

}  // namespace augur

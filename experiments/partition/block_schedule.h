// BlockSchedule: parameter blocking for matrix factorization (`--partition
// block`; DSGD, as Lapse and AdaPM cluster MF data), blocked by node.
//
// Every item is a matrix cell with exactly two keys: its row key first, its
// column key second. Of P workers, G = `workers_per_group` consecutive ones
// form a group (a node's workers: global worker g is on node g / G), so
// there are N = P / G groups. Rows are split into P row groups (one per
// worker) and columns into N column blocks, each balanced by the number of
// cells (largest first, each to the lightest group). Worker g of group n
// trains the cells of row group g in N sub-epochs: in sub-epoch s the cells
// whose column is in block (n + s) mod N. So at any sub-epoch every column
// block is used by exactly one group, and block b moves from group n+1 to
// group n between sub-epochs: relocation on intent keeps every access
// local, with no replicas except where groups drift apart at a sub-epoch
// boundary. Within a group the workers share the block through their
// node's store, as Hogwild threads share a table.
// Why by node and not by worker: with a block per worker, a sub-epoch is
// 1/P of a worker's epoch. At 8 x 4 on 1M ratings that was 3.4 batches,
// shorter than a relocation (a busy node's wake-ups) and than a replica's
// sync period, so every column block lived as replicas on most nodes and
// adaptive's test RMSE was 5.2% above the baseline's.
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
  std::vector<uint32_t> col_block;           // per key: the block (of a group) of a column key
};

// Error if an item does not have exactly two keys, or if `parts` is not a
// positive multiple of `workers_per_group`.
Result<BlockPlan> BlockSchedule(const ItemKeys& items, uint32_t parts, uint32_t workers_per_group,
                                uint64_t seed);

}  // namespace augur

// SplitWork: the training items of each of P workers, in training order, by
// the `--partition` method: random | graph (GraphPartitioner, items in index
// order) | block (BlockSchedule, DSGD sub-epochs; matrix cells only).
// One entry point for the PS jobs and the single-node baselines alike.
// Threading: pure function over values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/partition/graph_partitioner.h"

namespace augur {

// OK if `method` names a --partition method; otherwise the error to show.
Status CheckPartitionMethod(const std::string& method);

// Error (naming the flag) for an unknown method or items block cannot split.
Result<std::vector<std::vector<uint32_t>>> SplitWork(const ItemKeys& items, uint32_t parts,
                                                     const std::string& method, uint64_t seed);

}  // namespace augur

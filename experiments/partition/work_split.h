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

// OK if `method` names a --partition method (or auto); otherwise the error to show.
Status CheckPartitionMethod(const std::string& method);

// The method `auto` stands for on a cluster of `nodes` nodes. On several
// nodes: block for mf (DSGD blocking, as Lapse and AdaPM train MF: each
// column block is used by one worker at a time, so rows and column blocks
// stay on their node instead of moving between nodes); graph for kge and wv
// (a node's items share their entities and words, so few rows move: kge on
// 2 processes of the 50k WordNet triples relocated 17,600 rows in 3 epochs
// instead of 54,700, and its later epochs ran 1.3x faster); random for the
// rest. One node, the single-node baselines included, keeps random: nothing
// moves there, and on 2 threads the block schedule made mf 2-3x slower.
// Except with `--sampling local` (kge, wv): local negatives are drawn among
// the keys held on the node, which under a graph partition are the node's
// cluster of the graph, and training on them alone cost kge's test MRR 37%
// on Debian's package graph at 8 x 4 (WordNet 8%); under a random partition
// a node's keys are a random share of the entities, and both graphs came
// within 2% of the baseline, at 13-36% longer epochs
// (docs/measurements/2026-12-05-kge-local-partition.md).
// Other methods are returned as they are.
std::string ResolvePartition(const std::string& method, const std::string& workload, uint32_t nodes,
                             const std::string& sampling = "naive");

// Error (naming the flag) for an unknown method or items block cannot split.
// `workers_per_node`: the block schedule's group (a node's workers share its
// column block; block_schedule.h); the other methods ignore it.
Result<std::vector<std::vector<uint32_t>>> SplitWork(const ItemKeys& items, uint32_t parts,
                                                     const std::string& method, uint64_t seed,
                                                     uint32_t workers_per_node = 1);

}  // namespace augur

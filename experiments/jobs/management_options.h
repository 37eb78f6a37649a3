// Fills a NodeOptions' parameter-management part (policy, sync period,
// action timing) from the run configuration; shared by every Job.
//
// --replicas auto (the default) lets the adaptive policy replicate contended
// keys unless the store's optimizer is AdaGrad (kge, and Python nodes joined
// with optimizer='adagrad'); then it relocates only. Measured (docs/
// measurements/2026-12-03-kge-replicas.md): on WordNet and on Debian's
// package relations, 8 nodes x 4 workers in the simulator, adaptive without
// replicas reached a better test MRR with naive, pool and local sampling
// (6 of 6 cells) at the same simulated epoch time except with pool sampling
// (1.5-1.7x slower); even 18 replicated relation rows at 2 nodes x 1 worker
// raised the training loss from 1.68 to 2.05. on/off force the choice.
#pragma once

#include <vector>

#include "core/base/status.h"
#include "core/protocol/node.h"
#include "experiments/config/run_config.h"

namespace augur {

// `hot_keys`: the workload's keys by decreasing access frequency (nups
// replicates the first --replicate of them; all of them when it is 0).
// REQUIRES: o->optimizer is set (it decides --replicas auto).
Status ConfigureManagement(const RunConfig& config, std::vector<Key> hot_keys, NodeOptions* o);

// Whether the adaptive policy replicates under this configuration and optimizer.
bool AdaptiveReplicas(const RunConfig& config, OptimizerKind optimizer);

}  // namespace augur

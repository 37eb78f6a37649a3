// Fills a NodeOptions' parameter-management part (policy, sync period,
// action timing) from the run configuration; shared by every Job.
#pragma once

#include <vector>

#include "core/base/status.h"
#include "core/protocol/node.h"
#include "experiments/config/run_config.h"

namespace augur {

// `hot_keys`: the workload's keys by decreasing access frequency (nups
// replicates the first --replicate of them; all of them when it is 0).
Status ConfigureManagement(const RunConfig& config, std::vector<Key> hot_keys, NodeOptions* o);

}  // namespace augur

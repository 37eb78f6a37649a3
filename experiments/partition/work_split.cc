#include "experiments/partition/work_split.h"

#include "experiments/partition/block_schedule.h"

namespace augur {

Status CheckPartitionMethod(const std::string& method) {
  if (method == "auto" || method == "block" || ParsePartitionMethod(method).ok())
    return Status::Ok();
  return Status::Error("--partition '" + method +
                       "' is unknown (expected auto|random|graph|block)");
}

std::string ResolvePartition(const std::string& method, const std::string& workload, uint32_t nodes,
                             const std::string& sampling) {
  if (method != "auto" || nodes <= 1) return method == "auto" ? "random" : method;
  if (workload == "mf") return "block";
  if (workload == "kge" || workload == "wv") return sampling == "local" ? "random" : "graph";
  return "random";
}

Result<std::vector<std::vector<uint32_t>>> SplitWork(const ItemKeys& items, uint32_t parts,
                                                     const std::string& method, uint64_t seed,
                                                     uint32_t workers_per_node) {
  if (parts == 0) return Status::Error("--partition: need at least one worker");
  if (method == "block") {
    Result<BlockPlan> plan = BlockSchedule(items, parts, workers_per_node, seed);
    if (!plan.ok()) return plan.status();
    return std::move(plan->order);
  }
  if (Status s = CheckPartitionMethod(method); !s.ok()) return s;
  Result<PartitionMethod> m = ParsePartitionMethod(method);
  if (!m.ok()) return m.status();
  const std::vector<uint32_t> part = PartitionItems(items, parts, *m, seed);
  std::vector<std::vector<uint32_t>> mine(parts);
  for (uint32_t i = 0; i < part.size(); ++i) mine[part[i]].push_back(i);
  return mine;
}

}  // namespace augur

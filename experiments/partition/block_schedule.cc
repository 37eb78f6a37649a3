#include "experiments/partition/block_schedule.h"

#include <algorithm>
#include <string>

#include "core/base/rng.h"

namespace augur {

namespace {

// Assigns every key with a non-zero count to one of `groups` groups, largest
// count first, each to the currently lightest group (ties: lowest key, lowest
// group), so the groups' cell counts differ by at most one key's count.
std::vector<uint32_t> BalancedGroups(const std::vector<uint64_t>& count, uint32_t groups) {
  std::vector<uint32_t> order;
  for (uint32_t k = 0; k < count.size(); ++k)
    if (count[k] > 0) order.push_back(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return count[a] > count[b]; });
  std::vector<uint64_t> load(groups, 0);
  std::vector<uint32_t> group(count.size(), 0);
  for (uint32_t k : order) {
    const auto g = static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    group[k] = g;
    load[g] += count[k];
  }
  return group;
}

}  // namespace

Result<BlockPlan> BlockSchedule(const ItemKeys& items, uint32_t parts, uint32_t workers_per_group,
                                uint64_t seed) {
  if (parts == 0) return Status::Error("block schedule: need at least one worker");
  if (workers_per_group == 0 || parts % workers_per_group != 0)
    return Status::Error("block schedule: " + std::to_string(parts) +
                         " workers do not form groups of " + std::to_string(workers_per_group));
  const uint32_t groups = parts / workers_per_group;
  std::vector<uint64_t> row_count(items.num_keys, 0), col_count(items.num_keys, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items.end[i] - items.begin(i) != 2) {
      return Status::Error("--partition block: item " + std::to_string(i) + " has " +
                           std::to_string(items.end[i] - items.begin(i)) +
                           " keys; blocking needs matrix cells (row key, column key): use it "
                           "with --workload mf");
    }
    ++row_count[items.keys[items.begin(i)]];
    ++col_count[items.keys[items.begin(i) + 1]];
  }
  BlockPlan plan;
  plan.row_group = BalancedGroups(row_count, parts);
  plan.col_block = BalancedGroups(col_count, groups);
  // cells[g][s]: worker g's cells of sub-epoch s.
  std::vector<std::vector<std::vector<uint32_t>>> cells(parts,
                                                        std::vector<std::vector<uint32_t>>(groups));
  for (uint32_t i = 0; i < items.size(); ++i) {
    const uint32_t g = plan.row_group[items.keys[items.begin(i)]];
    const uint32_t b = plan.col_block[items.keys[items.begin(i) + 1]];
    cells[g][(b + groups - g / workers_per_group) % groups].push_back(i);
  }
  plan.order.resize(parts);
  for (uint32_t g = 0; g < parts; ++g) {
    for (uint32_t s = 0; s < groups; ++s) {
      Rng rng(DeriveSeed(seed, 0xB10C, uint64_t{g} * groups + s));
      Shuffle(&cells[g][s], rng);
      plan.order[g].insert(plan.order[g].end(), cells[g][s].begin(), cells[g][s].end());
    }
  }
  return plan;
}

}  // namespace augur

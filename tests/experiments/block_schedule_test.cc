// BlockSchedule (--partition block): every cell exactly once, balanced
// workers, a row on one worker, and in sub-epoch s worker g of group n uses
// only column block (n + s) mod N, so no two groups (nodes) share a block at
// once. Unit label.
#include "experiments/partition/block_schedule.h"

#include <catch2/catch.hpp>
#include <set>

#include "core/base/rng.h"

namespace augur {
namespace {

constexpr uint32_t kRows = 300, kCols = 120;

// A skewed rating matrix: row keys 0..kRows-1, column keys after them.
ItemKeys SkewedCells(uint32_t n) {
  ItemKeys items;
  items.num_keys = kRows + kCols;
  Rng rng(5);
  for (uint32_t i = 0; i < n; ++i) {
    const auto r = static_cast<uint32_t>(rng.Below(kRows));
    const double u = rng.Uniform();  // squared: skewed towards the low column ids
    items.Add({r, kRows + static_cast<uint32_t>(u * u * kCols)});
  }
  return items;
}

TEST_CASE("block schedule: in each sub-epoch every column block is used by one group",
          "[partition]") {
  const ItemKeys items = SkewedCells(6000);
  // {workers, workers per group}: a block per worker (the single node's
  // threads), and a block per node of 2 or 4 workers.
  for (auto [parts, per_group] : {std::pair{1u, 1u}, {3u, 1u}, {8u, 1u}, {8u, 2u}, {12u, 4u}}) {
    CAPTURE(parts, per_group);
    const uint32_t groups = parts / per_group;
    Result<BlockPlan> plan = BlockSchedule(items, parts, per_group, 11);
    REQUIRE(plan.ok());
    REQUIRE(plan->order.size() == parts);
    std::vector<int> seen(items.size(), 0);
    std::vector<std::vector<uint64_t>> block_load(parts, std::vector<uint64_t>(groups, 0));
    size_t min_load = items.size(), max_load = 0;
    for (uint32_t g = 0; g < parts; ++g) {
      const std::vector<uint32_t>& mine = plan->order[g];
      min_load = std::min(min_load, mine.size());
      max_load = std::max(max_load, mine.size());
      uint32_t sub = 0;
      for (uint32_t i : mine) {
        ++seen[i];
        const uint32_t r = items.keys[items.begin(i)], c = items.keys[items.begin(i) + 1];
        CHECK(plan->row_group[r] == g);  // a row belongs to one worker
        REQUIRE(plan->col_block[c] < groups);
        const uint32_t offset = (plan->col_block[c] + groups - g / per_group) % groups;
        CHECK(offset >= sub);  // sub-epochs in order: block n, n+1, ...
        sub = offset;
        ++block_load[g][plan->col_block[c]];
      }
    }
    for (int n : seen) CHECK(n == 1);  // every cell exactly once
    // Balanced within 10% (+ the heaviest single row's weight).
    CHECK(max_load - min_load <= items.size() / parts / 10 + 40);
    // Every block has work for more than one group when there are several
    // (the point), and for every worker of a group (they share it).
    if (groups > 1) {
      uint32_t used = 0;
      for (uint32_t g = 0; g < parts; g += per_group) used += block_load[g][0] > 0 ? 1 : 0;
      CHECK(used > 1);
    }
    for (uint32_t g = 0; g < parts; ++g) CHECK(block_load[g][0] > 0);
  }
}

TEST_CASE("block schedule refuses workers that do not form whole groups", "[partition]") {
  Result<BlockPlan> plan = BlockSchedule(SkewedCells(100), 6, 4, 1);
  REQUIRE_FALSE(plan.ok());
  CHECK(plan.status().message().find("6 workers do not form groups of 4") != std::string::npos);
}

TEST_CASE("block schedule refuses items that are not matrix cells", "[partition]") {
  ItemKeys items;
  items.num_keys = 10;
  items.keys = {1, 5, 2, 6, 7};
  items.end = {2, 5};
  Result<BlockPlan> plan = BlockSchedule(items, 2, 1, 1);
  REQUIRE_FALSE(plan.ok());
  CHECK(plan.status().message().find("item 1 has 3 keys") != std::string::npos);
}

}  // namespace
}  // namespace augur

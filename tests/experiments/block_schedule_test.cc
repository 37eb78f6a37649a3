// BlockSchedule (--partition block): every cell exactly once, balanced
// workers, a row on one worker, and in sub-epoch s worker g uses only column
// block (g + s) mod P, so no two workers share a block at once. Unit label.
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

TEST_CASE("block schedule: in each sub-epoch every column block is used by one worker",
          "[partition]") {
  const ItemKeys items = SkewedCells(6000);
  for (uint32_t parts : {1u, 3u, 8u}) {
    Result<BlockPlan> plan = BlockSchedule(items, parts, 11);
    REQUIRE(plan.ok());
    REQUIRE(plan->order.size() == parts);
    std::vector<int> seen(items.size(), 0);
    std::vector<std::vector<uint64_t>> block_load(parts, std::vector<uint64_t>(parts, 0));
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
        const uint32_t offset = (plan->col_block[c] + parts - g) % parts;
        CHECK(offset >= sub);  // sub-epochs in order: block g, g+1, ...
        sub = offset;
        ++block_load[g][plan->col_block[c]];
      }
    }
    for (int n : seen) CHECK(n == 1);  // every cell exactly once
    // Balanced within 10% (+ the heaviest single row's weight).
    CHECK(max_load - min_load <= items.size() / parts / 10 + 40);
    // Every block has work for more than one worker when parts > 1 (the point).
    if (parts > 1) {
      uint32_t used = 0;
      for (uint32_t g = 0; g < parts; ++g) used += block_load[g][0] > 0 ? 1 : 0;
      CHECK(used > 1);
    }
  }
}

TEST_CASE("block schedule refuses items that are not matrix cells", "[partition]") {
  ItemKeys items;
  items.num_keys = 10;
  items.keys = {1, 5, 2, 6, 7};
  items.end = {2, 5};
  Result<BlockPlan> plan = BlockSchedule(items, 2, 1);
  REQUIRE_FALSE(plan.ok());
  CHECK(plan.status().message().find("item 1 has 3 keys") != std::string::npos);
}

}  // namespace
}  // namespace augur

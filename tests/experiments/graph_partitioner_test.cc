// GraphPartitioner: balanced parts, and graph partitioning puts co-accessed
// keys together far better than random (AccessLocality). Unit label.
#include "experiments/partition/graph_partitioner.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "core/base/rng.h"
#include "tests/experiments/tiny_data.h"

namespace augur {
namespace {

// Items over 8 communities of 50 keys; 95% of items stay inside one community.
ItemKeys CommunityItems() {
  ItemKeys items;
  items.num_keys = 400;
  Rng rng(17);
  for (int i = 0; i < 4000; ++i) {
    const uint32_t c = static_cast<uint32_t>(rng.Below(8));
    const uint32_t a = c * 50 + static_cast<uint32_t>(rng.Below(50));
    const uint32_t other = rng.Uniform() < 0.95 ? c : static_cast<uint32_t>(rng.Below(8));
    items.Add({a, other * 50 + static_cast<uint32_t>(rng.Below(50))});
  }
  return items;
}

TEST_CASE("graph partition is balanced and more local than random", "[partition]") {
  const ItemKeys items = CommunityItems();
  for (uint32_t parts : {2u, 4u, 8u}) {
    const auto random = PartitionItems(items, parts, PartitionMethod::kRandom, 1);
    const auto graph = PartitionItems(items, parts, PartitionMethod::kGraph, 1);
    std::vector<uint64_t> load(parts, 0);
    for (uint32_t p : graph) ++load[p];
    const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
    CHECK(*hi <= items.size() / parts * 1.05 + 2);
    CHECK(*lo >= items.size() / parts * 0.9);
    const double lr = AccessLocality(items, random, parts);
    const double lg = AccessLocality(items, graph, parts);
    INFO("parts " << parts << " random " << lr << " graph " << lg);
    CHECK(lg > lr + 0.2);
    CHECK(PartitionItems(items, parts, PartitionMethod::kGraph, 1) == graph);  // deterministic
  }
}

TEST_CASE("graph partition helps on a knowledge graph too", "[partition]") {
  const KgDataset kg = testing::TinyKg(400, 3);
  ItemKeys items;
  items.num_keys = kg.num_entities();
  for (const Triple& t : kg.train) items.Add({t.head, t.tail});
  const auto random = PartitionItems(items, 4, PartitionMethod::kRandom, 3);
  const auto graph = PartitionItems(items, 4, PartitionMethod::kGraph, 3);
  CHECK(AccessLocality(items, graph, 4) > AccessLocality(items, random, 4) + 0.1);
  CHECK(ParsePartitionMethod("graph").ok());
  CHECK_FALSE(ParsePartitionMethod("metis").ok());
}

}  // namespace
}  // namespace augur

// GraphPartitioner: splits training items (triples, sentences, ratings) over
// P workers so that each worker's key accesses cluster (`--partition graph`),
// or uniformly at random (`--partition random`).
//
// Method (graph): the items' keys form an undirected Boost.Graph
// adjacency_list (an edge between consecutive keys of an item: head-tail of a
// triple, row-column of a rating, neighbouring words of a sentence). Vertices
// are laid out in breadth-first order (components seeded in a seeded random
// order), so neighbours sit close together; this order is cut into P chunks of
// equal access weight (BFS-grown regions). An item then goes to the region of
// most of its keys, unless that worker already holds its fair share (+2%), in
// which case it goes to the region of another of its keys or the least-loaded
// worker. Linear time; no external partitioner. Hot keys (relations, frequent
// words) should be left out of the item key lists: they are accessed
// everywhere and would glue all regions together.
// Threading: pure functions over values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

// Items over dense keys 0..num_keys-1: item i has keys[end[i-1] .. end[i]).
struct ItemKeys {
  uint32_t num_keys = 0;
  std::vector<uint32_t> keys;
  std::vector<uint64_t> end;

  size_t size() const { return end.size(); }
  uint64_t begin(size_t i) const { return i == 0 ? 0 : end[i - 1]; }
  void Add(std::initializer_list<uint32_t> item_keys) {
    keys.insert(keys.end(), item_keys);
    end.push_back(keys.size());
  }
};

enum class PartitionMethod { kRandom, kGraph };
Result<PartitionMethod> ParsePartitionMethod(const std::string& name);

// Returns the part (0..parts-1) of every item. REQUIRES: parts >= 1, keys < num_keys.
std::vector<uint32_t> PartitionItems(const ItemKeys& items, uint32_t parts, PartitionMethod method,
                                     uint64_t seed);

// Locality of an assignment: the share of key accesses that come from the
// part accessing that key most (1.0 = every key used by one part only).
double AccessLocality(const ItemKeys& items, const std::vector<uint32_t>& part_of_item,
                      uint32_t parts);

}  // namespace augur

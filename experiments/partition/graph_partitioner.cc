#include "experiments/partition/graph_partitioner.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <unordered_map>

#include "core/base/check.h"
#include "core/base/rng.h"

namespace augur {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

class OrderRecorder : public boost::default_bfs_visitor {
 public:
  explicit OrderRecorder(std::vector<uint32_t>* order) : order_(order) {}
  void discover_vertex(Graph::vertex_descriptor v, const Graph&) const {
    order_->push_back(static_cast<uint32_t>(v));
  }

 private:
  std::vector<uint32_t>* order_;
};

// Region (part) of every key: BFS order cut into parts of equal access weight.
std::vector<uint32_t> KeyRegions(const ItemKeys& items, uint32_t parts, Rng& rng) {
  Graph g(items.num_keys);
  std::vector<uint64_t> weight(items.num_keys, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    for (uint64_t j = items.begin(i); j < items.end[i]; ++j) {
      ++weight[items.keys[j]];
      if (j > items.begin(i) && items.keys[j] != items.keys[j - 1])
        boost::add_edge(items.keys[j - 1], items.keys[j], g);
    }
  }
  std::vector<uint32_t> seeds(items.num_keys);
  for (uint32_t k = 0; k < items.num_keys; ++k) seeds[k] = k;
  Shuffle(&seeds, rng);
  std::vector<boost::default_color_type> color(items.num_keys, boost::white_color);
  auto color_map =
      boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g));
  std::vector<uint32_t> order;
  order.reserve(items.num_keys);
  boost::queue<Graph::vertex_descriptor> queue;
  for (uint32_t s : seeds) {
    if (color[s] != boost::white_color) continue;
    boost::breadth_first_visit(g, s, queue, OrderRecorder(&order), color_map);
  }
  uint64_t total = 0;
  for (uint64_t w : weight) total += w;
  std::vector<uint32_t> region(items.num_keys, 0);
  uint64_t seen = 0;
  for (uint32_t v : order) {
    region[v] = static_cast<uint32_t>(
        std::min<uint64_t>(parts - 1, total == 0 ? 0 : (seen * parts) / total));
    seen += weight[v];
  }
  return region;
}

}  // namespace

Result<PartitionMethod> ParsePartitionMethod(const std::string& name) {
  if (name == "random") return PartitionMethod::kRandom;
  if (name == "graph") return PartitionMethod::kGraph;
  return Status::Error("unknown partition method '" + name + "' (expected random|graph)");
}

std::vector<uint32_t> PartitionItems(const ItemKeys& items, uint32_t parts, PartitionMethod method,
                                     uint64_t seed) {
  AUGUR_CHECK(parts >= 1, "need at least one part");
  Rng rng(DeriveSeed(seed, 0x9A27));
  std::vector<uint32_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  Shuffle(&order, rng);
  std::vector<uint32_t> part(items.size(), 0);
  if (method == PartitionMethod::kRandom || parts == 1) {
    for (size_t i = 0; i < order.size(); ++i) part[order[i]] = static_cast<uint32_t>(i % parts);
    return part;
  }
  const std::vector<uint32_t> region = KeyRegions(items, parts, rng);
  const uint64_t cap = items.size() / parts + items.size() / (50 * parts) + 1;
  std::vector<uint64_t> load(parts, 0);
  std::vector<uint32_t> votes(parts, 0);
  std::vector<uint32_t> candidates;
  for (uint32_t i : order) {
    candidates.clear();
    for (uint64_t j = items.begin(i); j < items.end[i]; ++j) {
      const uint32_t r = region[items.keys[j]];
      if (votes[r]++ == 0) candidates.push_back(r);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](uint32_t a, uint32_t b) { return votes[a] > votes[b]; });
    uint32_t chosen = parts;
    for (uint32_t c : candidates) {
      if (chosen == parts && load[c] < cap) chosen = c;
      votes[c] = 0;
    }
    if (chosen == parts)
      chosen = static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    part[i] = chosen;
    ++load[chosen];
  }
  return part;
}

double AccessLocality(const ItemKeys& items, const std::vector<uint32_t>& part_of_item,
                      uint32_t parts) {
  std::unordered_map<uint64_t, uint64_t> count;  // key * parts + part -> accesses
  std::vector<uint64_t> best(items.num_keys, 0);
  uint64_t total = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    for (uint64_t j = items.begin(i); j < items.end[i]; ++j) {
      const uint32_t k = items.keys[j];
      const uint64_t c = ++count[uint64_t{k} * parts + part_of_item[i]];
      best[k] = std::max(best[k], c);
      ++total;
    }
  }
  uint64_t local = 0;
  for (uint64_t b : best) local += b;
  return total == 0 ? 1.0 : static_cast<double>(local) / static_cast<double>(total);
}

}  // namespace augur

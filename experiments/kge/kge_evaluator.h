// KgeEvaluator: filtered link-prediction quality (MRR, Hits@1/3/10) of
// ComplEx embeddings, as in Bordes et al. 2013 / Trouillon et al. 2016.
//
// For every evaluated triple (h, r, t) both (h, r, ?) and (?, r, t) are
// ranked against all entities; other known true triples (train, valid,
// test) are filtered out; ties count half (neither optimistic nor
// pessimistic). Owns the filter index; immutable after construction, so
// Evaluate may run concurrently.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <unordered_map>
#include <vector>

#include "experiments/kge/kg_dataset.h"

namespace augur {

struct KgeQuality {
  double mrr = 0, hits1 = 0, hits3 = 0, hits10 = 0;
  // Standard error of mrr over the ranked queries (their reciprocal ranks'
  // sample standard deviation / sqrt(queries)): how far another sample of
  // the same size could put it. 0 below two queries.
  double mrr_stderr = 0;
  uint64_t queries = 0;
  // {prefix}mrr, _mrr_stderr, _hits1/3/10, _queries; an empty split (no
  // queries) has only {prefix}queries: 0.
  nlohmann::json ToJson(const std::string& prefix) const;
};

class KgeEvaluator {
 public:
  explicit KgeEvaluator(const KgDataset& data);

  // entities: E rows of 2*dim floats; relations: R rows. Uses `threads` threads.
  KgeQuality Evaluate(const float* entities, const float* relations, uint32_t dim,
                      const std::vector<Triple>& triples, uint32_t threads) const;

  // The first n triples of a seeded shuffle (all when n == 0 or n >= size).
  static std::vector<Triple> Sample(const std::vector<Triple>& triples, uint64_t n, uint64_t seed);

 private:
  uint32_t num_entities_;
  uint32_t num_relations_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> tails_;  // h*R+r -> known tails
  std::unordered_map<uint64_t, std::vector<uint32_t>> heads_;  // t*R+r -> known heads
};

}  // namespace augur

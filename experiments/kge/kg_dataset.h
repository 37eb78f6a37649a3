// KgDataset: a knowledge graph split into train/valid/test, and its on-disk format.
//
// Directory format (written by `augur data wordnet`, documented in its README.md):
//   entities.tsv   id<TAB>name<TAB>label     ids 0..E-1 in order
//   relations.tsv  id<TAB>name<TAB>label     ids 0..R-1 in order
//   train.tsv, valid.tsv, test.tsv           head<TAB>relation<TAB>tail (integer ids)
//   meta.json      counts, split seed, source
// Lines starting with '#' and empty lines are ignored. Readers check every
// id against the counts and report "FILE:LINE: ..." on the first bad line.
// SplitKg holds out triples whose head, tail and relation all keep at least
// one training triple, so every evaluated id has a trained embedding.
// Threading: plain values.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/kge/wordnet_reader.h"
#include "experiments/report/json_value.h"

namespace augur {

struct KgDataset {
  std::vector<std::string> entity_names, entity_labels;
  std::vector<std::string> relation_names, relation_labels;
  std::vector<Triple> train, valid, test;
  JsonValue meta = JsonValue::Object();

  uint32_t num_entities() const { return static_cast<uint32_t>(entity_names.size()); }
  uint32_t num_relations() const { return static_cast<uint32_t>(relation_names.size()); }
};

// Splits `triples` (deterministically from `seed`) into train/valid/test.
void SplitKg(std::vector<Triple> triples, uint32_t num_entities, uint32_t num_relations,
             uint64_t valid_count, uint64_t test_count, uint64_t seed, KgDataset* out);

// Builds the WordNet dataset from a WordNet data directory.
Result<KgDataset> BuildWordNetKg(const std::string& wordnet_dir, uint64_t valid_count,
                                 uint64_t test_count, uint64_t seed);

Status WriteKgDataset(const KgDataset& data, const std::string& dir);
Result<KgDataset> ReadKgDataset(const std::string& dir);

}  // namespace augur

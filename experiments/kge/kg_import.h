// ImportKg: a knowledge graph from tab-separated triples of names, as LibKGE,
// PyKEEN and OpenKE read them (FB15k-237, WN18RR, Wikidata5M, ...).
//
// Input: one `head<TAB>relation<TAB>tail` per line; the fields are any
// non-empty UTF-8 strings, spaces around them dropped (a purely numeric name
// stays a name, never an id). Empty lines and lines starting with '#' are
// skipped, and so is a column-name row as a file's first triple line
// (`head relation tail`, `head_label relation_label tail_label` or `subject
// predicate object`, any case; listed in meta headers_skipped as FILE:LINE).
// Entities and relations get dense ids in first-seen order over the training
// file (head before tail). Repeated training triples are kept once (counted
// as train_duplicates). Held-out triples come either from valid/test files,
// where a triple naming an entity or relation absent from training is
// dropped and counted (valid_dropped, test_dropped), or from a seeded split
// of the training file with SplitKg's rule (every evaluated id keeps a
// training triple).
// Errors: "FILE:LINE: what is wrong" on the first malformed line (wrong field
// count, empty field, not UTF-8), "cannot open FILE: ..." for a missing file,
// and an empty test split (nothing would measure quality), saying why.
// The result is a KgDataset for WriteKgDataset (entity and relation labels
// are empty; meta.json holds the counts). Threading: plain function.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "experiments/kge/kg_dataset.h"

namespace augur {

struct KgImportOptions {
  std::string train_file;
  std::string valid_file, test_file;  // both or neither
  // Without valid/test files: hold out this many triples by seed.
  uint64_t split_valid = 0, split_test = 0;
  uint64_t seed = 1;
};

Result<KgDataset> ImportKg(const KgImportOptions& options);

}  // namespace augur

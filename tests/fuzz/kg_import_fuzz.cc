// Fuzz target: the KG triple importer (experiments/data kg_import). Sections:
// train.tsv, valid.tsv, test.tsv; without a valid/test section the target
// holds out triples with --split 2,2 instead.
#include <cstddef>
#include <cstdint>

#include "experiments/kge/kg_import.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("kg-import");
  const auto sections = augur::fuzz::SplitSections(data, size);
  dir.WriteSections({"train.tsv", "valid.tsv", "test.tsv"}, sections);
  augur::KgImportOptions o;
  o.train_file = dir.File("train.tsv");
  if (sections.size() >= 3) {
    o.valid_file = dir.File("valid.tsv");
    o.test_file = dir.File("test.tsv");
  } else {
    o.split_valid = o.split_test = 2;
  }
  (void)augur::ImportKg(o);
  return 0;
}

// Fuzz target: the KG data-set reader (experiments/data kg_dataset). The
// input's sections are the data set's files, in the order of kFiles.
#include <cstddef>
#include <cstdint>

#include "experiments/kge/kg_dataset.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("kg");
  dir.WriteSections(
      {"entities.tsv", "relations.tsv", "train.tsv", "valid.tsv", "test.tsv", "meta.json"},
      augur::fuzz::SplitSections(data, size));
  (void)augur::ReadKgDataset(dir.path());
  return 0;
}

// Fuzz target: the matrix-factorisation data-set reader (experiments/data
// mf_dataset). Sections: meta.json, train.tsv, test.tsv.
#include <cstddef>
#include <cstdint>

#include "experiments/mf/mf_dataset.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("mf");
  dir.WriteSections({"meta.json", "train.tsv", "test.tsv"}, augur::fuzz::SplitSections(data, size));
  (void)augur::ReadMfDataset(dir.path());
  return 0;
}

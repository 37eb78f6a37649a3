// Fuzz target: the ratings importer (experiments/data mf_import): format
// detection, MatrixMarket, CSV/TSV with a header, '::'-separated. One file.
#include <cstddef>
#include <cstdint>

#include "experiments/mf/mf_import.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("mf-import");
  dir.WriteSections({"ratings"}, augur::fuzz::SplitSections(data, size));
  (void)augur::ImportMf({dir.File("ratings"), 0.2, 1});
  return 0;
}

// Fuzz target: `augur sim --costs FILE` parsing (simulator costs_file).
#include <cstddef>
#include <cstdint>

#include "simulator/costs_file.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("costs");
  dir.WriteSections({"costs.json"}, {std::string_view(reinterpret_cast<const char*>(data), size)});
  (void)augur::ReadCostsFile(dir.File("costs.json"));
  return 0;
}

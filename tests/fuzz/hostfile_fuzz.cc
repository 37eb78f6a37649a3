// Fuzz target: `augur launch --hostfile` parsing (experiments/launch hostfile).
#include <cstddef>
#include <cstdint>

#include "experiments/launch/hostfile.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("hostfile");
  dir.WriteSections({"hosts"}, {std::string_view(reinterpret_cast<const char*>(data), size)});
  (void)augur::ReadHostfile(dir.File("hosts"));
  return 0;
}

// Fuzz target: `--secret-file` loading (backends/tcp handshake LoadSecret).
#include <cstddef>
#include <cstdint>

#include "backends/tcp/handshake.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("secret");
  dir.WriteSections({"secret"}, {std::string_view(reinterpret_cast<const char*>(data), size)});
  (void)augur::tcp::LoadSecret(dir.File("secret"));
  return 0;
}

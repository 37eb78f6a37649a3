// Fuzz target: the WordNet reader (experiments/data wordnet_reader). The
// first section is also parsed as single data lines of every part of speech;
// sections 1-4 become DIR/data.{noun,verb,adj,adv} for ReadWordNet, which
// resolves pointers across files. Malformed input must be an error naming
// the file and line, never undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string>

#include "experiments/kge/wordnet_reader.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("wordnet");
  const auto sections = augur::fuzz::SplitSections(data, size);
  std::string_view first = sections[0];
  while (!first.empty()) {
    const size_t nl = first.find('\n');
    const std::string_view line = first.substr(0, nl);
    for (char pos : {'n', 'v', 'a', 'r'}) {
      augur::WordNetSynset s;
      (void)augur::ParseWordNetDataLine(line, pos, &s);
    }
    if (nl == std::string_view::npos) break;
    first.remove_prefix(nl + 1);
  }
  dir.WriteSections({"data.noun", "data.verb", "data.adj", "data.adv"}, sections);
  (void)augur::ReadWordNet(dir.path());
  return 0;
}

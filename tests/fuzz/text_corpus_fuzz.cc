// Fuzz target: the text corpus reader (experiments/data text_corpus). Sections:
// vocab.tsv, corpus.txt, meta.json; min_count 1 and 2 (dropped words differ).
#include <cstddef>
#include <cstdint>

#include "experiments/wv/text_corpus.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("text");
  dir.WriteSections({"vocab.tsv", "corpus.txt", "meta.json"},
                    augur::fuzz::SplitSections(data, size));
  for (uint64_t min_count : {1, 2}) (void)augur::ReadTextCorpus(dir.path(), min_count);
  std::vector<std::string> tokens;
  augur::Tokenize(std::string_view(reinterpret_cast<const char*>(data), size), &tokens);
  return 0;
}

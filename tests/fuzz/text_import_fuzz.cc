// Fuzz target: the plain-text importer (experiments/data text_import): UTF-8
// checks, tokenising, the corpus builder. Sections: up to two input files.
#include <cstddef>
#include <cstdint>

#include "experiments/wv/text_import.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("text-import");
  const auto sections = augur::fuzz::SplitSections(data, size);
  dir.WriteSections({"a.txt", "b.txt"}, sections);
  std::vector<std::string> files = {dir.File("a.txt")};
  if (sections.size() >= 2) files.push_back(dir.File("b.txt"));
  augur::CorpusBuilder corpus;
  (void)augur::ImportText(files, &corpus);
  return 0;
}

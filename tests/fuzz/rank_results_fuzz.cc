// Fuzz target: merging `augur launch` rank results (experiments/launch
// result_merge). Sections are DIR/rank-0/result.json and DIR/rank-1/result.json.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "experiments/launch/result_merge.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("ranks");
  static const bool made = std::filesystem::create_directories(dir.File("rank-0")) &&
                           std::filesystem::create_directories(dir.File("rank-1"));
  (void)made;
  dir.WriteSections({"rank-0/result.json", "rank-1/result.json"},
                    augur::fuzz::SplitSections(data, size));
  augur::Result<std::vector<nlohmann::json>> ranks = augur::ReadRankResults(dir.path(), 2);
  if (ranks.ok()) (void)augur::MergeRankResults(*ranks);
  return 0;
}

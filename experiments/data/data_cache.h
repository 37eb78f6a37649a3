// Data cache: where a run finds its prepared data set.
//
// Every run command takes `--data DIR`. Without it, kge and wv prepare the
// WordNet data sets once into a cache folder, kCacheRoot relative to the
// current directory (results/cache/wordnet-kg, results/cache/wordnet-text),
// and reuse them afterwards. Preparation writes into a temporary sibling and
// renames it into place, so concurrent first runs do not see half a data set.
// Threading: plain functions; safe across processes (atomic rename).
#pragma once

#include <string>

#include "core/base/status.h"

namespace augur {

inline constexpr const char* kCacheRoot = "results/cache";
inline constexpr uint64_t kWordNetSplitSeed = 1;
inline constexpr uint64_t kWordNetHeldOut = 5000;  // valid and test triples each (as WN18)

// Returns data_dir if set, else the cached WordNet KG dir (building it first).
Result<std::string> ResolveKgDataDir(const std::string& data_dir, const std::string& wordnet_dir);
// Returns data_dir if set, else the cached WordNet text corpus dir (building it first).
Result<std::string> ResolveTextDataDir(const std::string& data_dir, const std::string& wordnet_dir);

}  // namespace augur

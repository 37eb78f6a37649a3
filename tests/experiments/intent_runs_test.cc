// IntentRuns: a worker's per-batch intents merged into one signal per run of
// batches that use a key, checked against the per-batch uses of seeded random
// batches for several gaps. Unit label.
#include "experiments/jobs/intent_runs.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <vector>

#include "core/base/rng.h"

namespace augur {
namespace {

// Batch i uses some of 40 keys, a few of them twice.
std::vector<std::vector<Key>> RandomBatches(uint32_t batches, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<Key>> out(batches);
  for (auto& keys : out) {
    const uint64_t n = 1 + rng.Below(12);
    for (uint64_t j = 0; j < n; ++j) keys.push_back(rng.Below(40));
    if (!keys.empty() && rng.Below(2) == 0) keys.push_back(keys.front());
  }
  return out;
}

TEST_CASE("intent runs cover every use once and merge uses at most gap batches apart", "[jobs]") {
  const uint32_t gap = GENERATE(0u, 1u, 3u, 1000u);
  const uint64_t seed = GENERATE(1u, 2u, 3u);
  const uint32_t batches = 60;
  const auto uses = RandomBatches(batches, seed);
  const IntentRuns runs(batches, gap, [&](uint32_t i, std::vector<Key>* keys) {
    keys->insert(keys->end(), uses[i].begin(), uses[i].end());
  });
  INFO("gap " << gap << " seed " << seed);
  // Where each key is used, and the runs given for it.
  std::map<Key, std::set<uint32_t>> used_at;
  for (uint32_t i = 0; i < batches; ++i)
    for (Key k : uses[i]) used_at[k].insert(i);
  std::map<Key, std::vector<std::pair<uint32_t, uint32_t>>> runs_of;
  uint64_t total = 0;
  for (uint32_t i = 0; i < batches; ++i) {
    uint32_t last_end = 0;
    for (const IntentRun& run : runs.RunsStartingAt(i)) {
      CHECK(run.start == i);
      CHECK(run.end > last_end);  // one entry per [start, end), in end order
      last_end = run.end;
      CHECK(std::set<Key>(run.keys.begin(), run.keys.end()).size() == run.keys.size());
      for (Key k : run.keys) runs_of[k].emplace_back(run.start, run.end);
      total += run.keys.size();
    }
  }
  CHECK(total == runs.total_keys());
  CHECK(runs.RunsStartingAt(batches).empty());
  CHECK(runs_of.size() == used_at.size());
  for (const auto& [key, at] : used_at) {
    const auto& rs = runs_of[key];
    // Every use in exactly one run of its key; each run starts and ends on a use.
    for (uint32_t i : at) {
      int covering = 0;
      for (const auto& [s, e] : rs) covering += s <= i && i < e ? 1 : 0;
      CHECK(covering == 1);
    }
    for (const auto& [s, e] : rs) {
      CHECK(at.count(s) == 1);
      CHECK(at.count(e - 1) == 1);
      // Inside a run, no two consecutive uses are more than gap apart.
      uint32_t prev = s;
      for (auto it = at.lower_bound(s); it != at.end() && *it < e; prev = *it, ++it)
        CHECK(*it - prev <= gap);
    }
    // Between runs, the uses are more than gap apart (else they would merge).
    for (size_t r = 1; r < rs.size(); ++r) CHECK(rs[r].first - (rs[r - 1].second - 1) > gap);
  }
  if (gap == 0) {  // the per-batch signals: each run one batch
    uint64_t distinct = 0;
    for (const auto& keys : uses) distinct += std::set<Key>(keys.begin(), keys.end()).size();
    CHECK(runs.total_keys() == distinct);
    for (const IntentRun& run : runs.runs()) CHECK(run.end == run.start + 1);
  }
  if (gap >= batches) CHECK(runs.total_keys() == used_at.size());  // one run per key
}

}  // namespace
}  // namespace augur

// IntentRuns: a worker's intents over one epoch merged into runs, one signal
// per run of batches that use a key, instead of one signal per batch.
//
// A worker signals, for batch i of an epoch, "I will access these keys while
// my clock is in [i, i+1)" (BatchJob). Where the job knows that no worker of
// another node uses a key between two of this worker's uses (mf under
// `--partition block`: a row belongs to one worker for the whole run, a
// column block to one node's workers per sub-epoch), the per-batch signals
// of the key say no more than one signal from its first use to its last:
// [first, last + 1). (The node's own workers share its copy, and each
// signals its own runs.) The
// node then counts, activates and expires each key once per run instead of
// once per batch it appears in.
//
// MergeIntentRuns: uses of a key at batches i < j belong to one run when j -
// i <= gap (gap 0: every batch its own run, as the per-batch signals). Runs
// with the same [start, end) share one entry, keys in first-use order; runs
// are sorted by start, then end. RunsStartingAt gives those of one batch.
// Threading: values; one per worker.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/types.h"

namespace augur {

struct IntentRun {
  uint32_t start = 0;  // batch index within the epoch
  uint32_t end = 0;    // exclusive
  std::vector<Key> keys;
};

class IntentRuns {
 public:
  IntentRuns() = default;
  // keys_of(i, &keys) appends the keys batch i (0 <= i < batches) uses
  // (duplicates allowed).
  IntentRuns(uint32_t batches, uint32_t gap,
             const std::function<void(uint32_t, std::vector<Key>*)>& keys_of);

  std::span<const IntentRun> RunsStartingAt(uint32_t batch) const;
  const std::vector<IntentRun>& runs() const { return runs_; }
  // Keys over all runs: what the node counts per epoch.
  uint64_t total_keys() const { return total_keys_; }

 private:
  std::vector<IntentRun> runs_;
  std::vector<uint32_t> first_at_;  // runs_[first_at_[i] .. first_at_[i+1]) start at batch i
  uint64_t total_keys_ = 0;
};

}  // namespace augur

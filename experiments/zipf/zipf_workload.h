// ZipfWorkload: the synthetic sparse workload (REFERENCE §5 in miniature).
//
// Every worker trains on a deterministic stream of mini-batches of
// `batch_size` key accesses over `keys` logical keys (scattered over the whole
// uint64 space, so no dense-range assumption can hide), each a value of `dim`
// floats. Per batch: Pull, modelled compute, Push, AdvanceClock; intent for
// the batch `lookahead` clocks ahead. Patterns:
//   uniform      any worker, any key, uniformly;
//   hot          one Zipf(skew) distribution shared by all workers;
//   partitioned  each worker draws 90% from its own key range, 10% anywhere;
//   mixed        30% from a small very hot set (Zipf), 70% partitioned
//                (the shape of knowledge-graph embeddings: hot relations, clustered entities).
// With verify, pushes carry small integer updates and VerifyNode() checks every
// touched key against the exactly computed expected sum.
// Thread-safety: const methods are safe to call concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/worker.h"
#include "core/base/status.h"
#include "core/base/value_layout.h"
#include "experiments/zipf/zipf_sampler.h"

namespace augur {

enum class AccessPattern { kUniform, kHot, kPartitioned, kMixed };
Result<AccessPattern> ParseAccessPattern(const std::string& name);
const char* AccessPatternName(AccessPattern p);

struct ZipfOptions {
  uint64_t keys = 100000;
  uint32_t dim = 16;
  uint32_t batch_size = 64;
  uint32_t batches_per_epoch = 50;  // per worker
  uint32_t epochs = 1;
  AccessPattern pattern = AccessPattern::kUniform;
  double skew = 1.0;
  // Clocks of intent signalled ahead; 0 = none. Signal early and let the node
  // time the action (ActionTiming): 32 left under 1.1% of the bench's accesses
  // late, 2 left 12% (scripts/bench-policies.sh, 8x4 nodes).
  uint32_t lookahead = 32;
  bool verify = false;
  uint64_t seed = 1;
  // Modelled compute per key access (charged via Worker::Compute).
  double compute_seconds_per_key = 50e-9;
  // Added per key access in a run's first epoch (a calibrated start-up cost:
  // first touches; SimCosts::first_epoch_extra_seconds_per_sample). A resumed
  // run, which starts later, pays none.
  double first_epoch_extra_seconds_per_key = 0;
  // Resume from a checkpoint: epochs already done, and the shape
  // (nodes x workers per node) of the run that did them; 0 = this run's shape.
  uint32_t start_epoch = 0;
  uint32_t prior_nodes = 0;
  uint32_t prior_workers = 0;
};

// What one node's worker 0 saw: epoch times (node 0 only) and verification.
struct EpochLog {
  std::vector<double> epoch_seconds;
};

class ZipfWorkload {
 public:
  ZipfWorkload(ZipfOptions options, uint32_t nodes, uint32_t workers_per_node);

  const ZipfOptions& options() const { return options_; }
  ValueLayout layout() const { return ValueLayout(options_.dim); }
  uint64_t TotalAccesses() const;

  // The key ids of one batch of global worker g at clock c (deterministic).
  void BatchKeys(uint32_t g, Clock c, std::vector<Key>* out) const;
  // The integer update (verify mode) of access j of that batch, for element 0;
  // element d gets Update * (1 + d % 2).
  static float Update(uint32_t g, Clock c, uint32_t j);
  static Key KeyOf(uint64_t logical) { return Mix64(logical ^ 0x5EEDull); }

  // The `count` most frequently accessed keys, most frequent first (exact for
  // hot and mixed; for uniform and partitioned all keys are equally likely).
  std::vector<Key> HotKeys(uint64_t count) const;

  // Stream clock of the first batch this run trains (start_epoch * batches).
  Clock StartClock() const { return Clock{options_.start_epoch} * options_.batches_per_epoch; }
  // Every key accessed at stream clocks < end (by the prior shape before
  // StartClock(), by this run's after), sorted.
  std::vector<Key> KeysAccessedBefore(Clock end) const;

  // Called by every worker after the barrier that ends an epoch; `epochs_done`
  // counts from the start of the whole (possibly resumed) training. Training
  // stops when it returns false (the same on every worker of the process).
  using EpochEnd = std::function<bool(Worker& w, uint32_t epochs_done)>;
  // Trains epochs start_epoch..epochs-1 of this worker's stream; worker 0 of
  // node 0 appends epoch times to log.
  void RunWorker(Worker& w, EpochLog* log, const EpochEnd& on_epoch_end = {}) const;
  // After the final barrier, run by one worker per node: checks the keys whose
  // home is this node. Returns the number of mismatching keys and fills `detail`.
  uint64_t VerifyNode(Worker& w, std::string* detail) const;

 private:
  uint32_t GlobalWorker(const Worker& w) const;
  // BatchKeys for a run of `workers` global workers.
  void BatchKeysOf(uint64_t workers, uint32_t g, Clock c, std::vector<Key>* out) const;
  // Calls f(g, c, keys) for every batch at stream clocks < end, in each
  // clock's shape (prior before StartClock()).
  template <typename F>
  void ForEachBatch(Clock end, F&& f) const;
  void ComputeExpectedSums();

  ZipfOptions options_;
  uint32_t nodes_;
  uint32_t workers_per_node_;
  std::unique_ptr<ZipfSampler> zipf_;     // hot pattern: all keys
  std::unique_ptr<ZipfSampler> hot_set_;  // mixed pattern: the hot set
  // verify mode: expected update sum (element 0) per touched key, computed at construction.
  std::unordered_map<Key, uint64_t> expected_;
};

}  // namespace augur

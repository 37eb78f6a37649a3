// NodeOptions: how a Node is configured (node.h); each engine part reads
// the options of its concept at construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/base/value_layout.h"
#include "core/policy/policy.h"
#include "core/protocol/replica_delta_bound.h"
#include "core/sampling/sampling.h"
#include "core/store/optimizer.h"
#include "core/store/param_store.h"

namespace augur {

// The stall watchdog's default limit (stall_timeout_seconds; `--stall-timeout`).
// An operation normally completes in milliseconds; the slowest legitimate
// ones found are seconds long (a WaitSync of many replicas over a 100 Mbit/s
// link, a pull answered behind a whole 1,024-node cluster's traffic to its
// owner): five minutes is far beyond them, and a hang still ends.
inline constexpr double kDefaultStallTimeoutSeconds = 300;

struct NodeOptions {
  uint32_t workers = 1;
  ValueLayout layout;
  ParamStore::Initializer init;          // null: zeros
  OptimizerConfig optimizer;             // how pushes apply (default: additive)
  std::shared_ptr<const Policy> policy;  // null: classic
  // Replica synchronisation period. A timer round also waits for the previous
  // one's answer, and for 5x the time the node took to build it (OnTimer).
  double sync_period_seconds = 1e-3;
  // Significance filter of timer rounds (Gaia's, NSDI'17): a replica whose
  // local change since its last flush is at most `sync_significance` of its
  // value's norm (and an idle one) skips the round, at most
  // `sync_max_deferred` rounds in a row. 0: every replica syncs every round.
  // WaitSync rounds and drops always flush.
  double sync_significance = 0.0;
  uint32_t sync_max_deferred = 8;
  // Busiest-first timer rounds: while more replicas are held than
  // `sync_round_keys`, a timer round flushes the ones with the largest change
  // since their last flush (the norm of their summed updates), that many, and defers the others
  // (each at most `sync_max_deferred` rounds in a row; idle ones first). For
  // links that sync traffic saturates: smaller rounds come round sooner, so
  // the busiest replicas are fresher. 0: no budget.
  uint32_t sync_round_keys = 0;
  // Clipping of replica flushes (replica_delta_bound.h); applies to the sgd
  // optimizer only (off for sum and adagrad).
  ReplicaDeltaBoundOptions replica_delta_bound;
  bool act_immediately = false;  // act on intent at signal time
  // A node that hands a key over tells the key's home at its next sync round
  // (relocation.h), with the round's other owner updates for that home;
  // true: at once, in a message of its own.
  bool immediate_owner_updates = false;
  SamplingOptions sampling;  // PrepareSample/PullSample
  uint64_t seed = 1;         // run seed; per-worker streams derive from it
  // The store's lock stripes: a batch takes each stripe's lock once, and the
  // keys of one stripe overlap their cache misses. 16 rather than 64 (a batch
  // of 256 keys: 16 per lock, not 4): LocalPull/100 8.7-8.9 us against
  // 10.3-11.7 us, alternating, on the AMD host; with busy stripes served last
  // (ParamStore::ForBatch), 2 processes sharing the cores ran as fast as with 64.
  uint32_t store_stripes = 16;
  size_t location_cache_capacity = 1 << 20;  // entries; cleared when full
  // Where this node's replica-flush sequence starts (30 bits; any value is
  // correct, since versions compare in serial arithmetic): tests start it
  // near the half-way point to check that a new holder's first delta applies.
  uint32_t first_sync_version = 0;
  // The stall watchdog (stall_watchdog.h): a worker parked on an operation,
  // or a timer sync round unanswered, for longer than this (runtime seconds)
  // fails the run with a description of it. 0: off.
  double stall_timeout_seconds = kDefaultStallTimeoutSeconds;
};

}  // namespace augur

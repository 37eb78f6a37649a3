// StallWatchdog: an operation that never completes becomes one error line.
//
// A protocol bug can leave a worker waiting for an operation whose key is
// never served while the rest of the node keeps running (its sync timer
// keeps firing): the simulation never ends, the process never exits (a
// simulated run hung so for 25 minutes before anyone noticed; 71c939e).
// The watchdog turns that into a failed run. It judges:
//  - a worker parked on an operation (Worker::Wait, WaitAll, WaitSync and
//    the sampler's waits) for more than the limit, since its wait began;
//  - a timer sync round unanswered for more than the limit (no worker
//    waits for it, but every later round waits behind it: the replicas
//    would go stale without a word).
// Not a barrier or a checkpoint's wait for keys in transfer: a worker may
// wait there as long as the slowest worker computes or evaluates.
// The limit (NodeOptions::stall_timeout_seconds; 0: off) is in the
// runtime's time: simulated seconds in the simulator, virtual ones on
// loopback, wall seconds on TCP.
//
// The node calls Check at every sync round (Node::OnTimer) and when its
// runtime asks (Node::CheckStalls, on a tick of the runtime's own, as TCP has
// where no sync timer runs). It adds no timer, message or runtime call: a run
// where it does not fire is the same, event for event, as one without it.
// A run where nothing at all is left to happen is not its business: the
// simulator ends it with a deadlock error, loopback aborts naming the parked
// workers.
//
// What it reports, in one line: the node, the worker (or the timer round),
// the kind of operation, how long it has waited and on which clock, its
// size and unanswered keys, and for its first keys (OperationTable keeps
// kFirstKeys) where this node thinks each is: held here (main copy or
// replica), in transfer here with the requests queued for it, bounced,
// its owner in the directory (at its home), where this node handed it,
// where it was last seen, and where a request for it goes now. The first
// keys are where to start, not necessarily the unanswered ones (the table
// counts answered keys, it does not name them).
//
// Owns: the limit and whether it fired (it fires once per node).
// Locking: Check REQUIRES the engine lock held.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "core/base/types.h"
#include "core/protocol/engine_context.h"

namespace augur {

class Relocation;
class Replication;
class Routing;

class StallWatchdog {
 public:
  StallWatchdog(EngineContext& cx, Routing& routing, Relocation& relocation,
                Replication& replication, double limit_seconds);
  StallWatchdog(const StallWatchdog&) = delete;
  StallWatchdog& operator=(const StallWatchdog&) = delete;

  double limit_seconds() const { return limit_seconds_; }
  // The first stall at runtime time `now`, described; OK when there is none,
  // the watchdog is off, or it fired before. REQUIRES: engine lock held.
  Status Check(double now);

 private:
  // "node N worker W has waited ..." (worker: OperationTable::kNoWorker for
  // the timer round). REQUIRES: engine lock held.
  std::string Describe(WorkerId worker, bool wait_all, uint64_t op, double waited) const;
  std::string DescribeKey(Key key, uint64_t op) const;

  EngineContext& cx_;
  const Routing& routing_;
  const Relocation& relocation_;
  const Replication& replication_;
  const double limit_seconds_;
  bool fired_ = false;
};

}  // namespace augur

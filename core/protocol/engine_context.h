// EngineContext: what every part of a node's protocol engine shares.
//
// A Node's engine is split by concept into parts (routing.h, relocation.h,
// replication.h, intent_tracker.h, barrier.h, quiesce.h); each owns its own
// state and receives this context, and the parts it calls, by reference.
// The context holds:
//  - facts fixed for the run, read without the lock: the runtime, this
//    node's id, the cluster size, the store, the policy, the counters
//    (relaxed atomics), the workers' Parkers;
//  - the engine lock, ONE runtime-provided mutex guarding the state of the
//    whole engine (every part's and, here, the pending operations, the send
//    queue's staging and the sync timer flag);
//  - Flush, which issues an engine call's Effects after the lock.
//
// Locking: an engine call holds an EngineLock while it reads or changes
// engine state and collects its messages and wake-ups in an Effects; the
// critical section never calls into the runtime. On the EngineLock's exit
// the messages join the send queue (still under the lock, so the queue
// holds them in build order); then the call runs Flush(fx) without the lock.
// Methods of the parts marked "REQUIRES: engine lock held" run inside such a
// call; the others take the lock themselves.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"
#include "core/policy/policy.h"
#include "core/protocol/effects.h"
#include "core/protocol/home.h"
#include "core/protocol/operation_table.h"
#include "core/protocol/send_queue.h"
#include "core/runtime/runtime.h"
#include "core/store/param_store.h"

namespace augur {

class EngineContext {
 public:
  static constexpr uint64_t kSyncTimer = 1;

  // Creates the engine lock, then one Parker per worker, from the runtime.
  // Everything referenced outlives the context.
  EngineContext(Runtime& rt, ParamStore& param_store, const Policy& node_policy,
                NodeCounters& node_counters, uint32_t num_workers, double sync_period);
  EngineContext(const EngineContext&) = delete;
  EngineContext& operator=(const EngineContext&) = delete;

  // Fixed for the run; no lock needed.
  Runtime& runtime;
  const NodeId self;
  const uint32_t num_nodes;
  ParamStore& store;  // thread-safe (striped locks)
  const Policy& policy;
  NodeCounters& counters;
  const double sync_period_seconds;

  NodeId HomeOf(Key key) const { return HomeNode(key, num_nodes); }
  // A one-node cluster: every key is homed here and never leaves.
  bool solo() const { return num_nodes == 1; }
  const ValueLayout& layout() const { return store.layout(); }
  // Floats a request of type t carries for key k: a sync's or a push's
  // delta (ParamStore::DeltaLength), else a value.
  uint32_t RequestValues(MessageType t, Key k) const {
    return t == MessageType::kSyncRequest || t == MessageType::kPushRequest
               ? store.DeltaLength(k)
               : store.layout().Length(k);
  }
  uint32_t workers() const { return static_cast<uint32_t>(parkers_.size()); }
  // Worker w's Parker: the worker parks on it, the engine unparks it.
  Parker& parker(WorkerId w) { return *parkers_[w]; }
  bool HasMain(Key key);  // this node holds key's main copy

  // "<type> from node <src>", for errors.
  static std::string From(const Message& m);
  // That m carries the values its keys need (rows: whole rows, value then
  // optimizer state; else values only), and that no key appears twice.
  Status CheckValueCount(const Message& m, bool rows) const {
    return CheckValueCount(m, rows, m.values.size());
  }
  Status CheckValueCount(const Message& m, bool rows, size_t value_count) const;
  static Status CheckDistinctKeys(const Message& m);

  Mutex& mu() { return *mu_; }

 private:
  // Declared before what takes a reference to them.
  std::unique_ptr<Mutex> mu_;
  std::vector<std::unique_ptr<Parker>> parkers_;  // parkers_[w]: worker w's

 public:
  // Guarded by the engine lock.
  OperationTable ops;
  bool timer_armed = false;  // the sync timer runs (arm it once)

  SendQueue sends;  // staging under the lock; draining without it

  // Sends what is queued, wakes, arms the timer. REQUIRES: engine lock not
  // held, and fx built under an EngineLock (its messages staged).
  void Flush(Effects& fx);

 private:
  void EnsureTimer();  // REQUIRES: engine lock not held
};

// The engine lock for one engine call that builds `fx`. On scope exit, still
// under the lock, the messages in fx.out join the send queue, so the queue
// holds every message in the order it was built. Then call cx.Flush(fx).
class EngineLock {
 public:
  EngineLock(EngineContext& cx, Effects& fx) : cx_(cx), fx_(fx) { cx_.mu().lock(); }
  ~EngineLock() {
    cx_.sends.Stage(fx_.out);
    cx_.mu().unlock();
  }
  EngineLock(const EngineLock&) = delete;
  EngineLock& operator=(const EngineLock&) = delete;

 private:
  EngineContext& cx_;
  Effects& fx_;
};

}  // namespace augur

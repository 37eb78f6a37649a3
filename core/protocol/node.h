// Node: one parameter-server node's core: store, workers and protocol engine.
//
// Owns the ParamStore and the Worker handles; reaches the outside only through
// the injected Runtime. The runtime delivers messages via OnMessage and timers
// via OnTimer from its protocol context; workers call in from their own
// contexts. Engine state (pending operations, directory, location cache,
// in-transfer queues, replica bookkeeping, intents, barrier) is guarded by one
// runtime-provided Mutex whose critical sections never call into the runtime:
// messages and wake-ups are collected under the lock (Outbox, Wakeups) and
// issued after it is released. Messages leave the node in the order they were
// built, whichever thread built them: each critical section moves its
// messages to one node-wide send queue before unlocking (EngineLock), and one
// thread at a time drains that queue. The relocation protocol depends on it:
// a hand-over must reach the home before a later request for the same key
// from the same node, even when a worker builds the request while the
// protocol thread is still sending the hand-over.
//
// Techniques (REFERENCE §2), chosen per key by the Policy:
//  - classic: every key lives at HomeNode(key), created there on first touch;
//  - relocation (§2.3): the home node's directory records owners that are not
//    the home; the old owner hands the row over (3 messages); operations on a
//    key in transfer queue at the receiver and apply in arrival order;
//    requests reaching a node that no longer owns the key are forwarded via
//    the home; location caches save the home hop;
//  - replication (§2.4, §2.6): replicas accumulate deltas, flushed to the main
//    copy every sync period with a version so each delta applies exactly once;
//  - intent (§2.6): signals activate per ActionTiming and trigger localize
//    requests; the owner decides relocate or replicate.
// Files: node.cc (lifecycle, dispatch, operations), node_send_queue.cc,
// node_barrier.cc, node_routing.cc (where a request goes),
// node_relocation.cc, node_replication.cc, node_intent.cc, node_quiesce.cc
// (snapshots for checkpoints).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/worker.h"
#include "core/base/status.h"
#include "core/base/value_layout.h"
#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"
#include "core/policy/policy.h"
#include "core/protocol/action_timing.h"
#include "core/protocol/intent_table.h"
#include "core/protocol/outbox.h"
#include "core/protocol/replica_delta_bound.h"
#include "core/runtime/runtime.h"
#include "core/store/param_store.h"

namespace augur {

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
  // since their last flush (UpdateNormSq), that many, and defers the others
  // (each at most `sync_max_deferred` rounds in a row; idle ones first). For
  // links that sync traffic saturates: smaller rounds come round sooner, so
  // the busiest replicas are fresher. 0: no budget.
  uint32_t sync_round_keys = 0;
  // Clipping of replica flushes (replica_delta_bound.h); applies to the sgd
  // optimizer only (off for sum and adagrad).
  ReplicaDeltaBoundOptions replica_delta_bound;
  bool act_immediately = false;  // act on intent at signal time
  SamplingOptions sampling;      // PrepareSample/PullSample
  uint64_t seed = 1;             // run seed; per-worker streams derive from it
  uint32_t store_stripes = 64;
  size_t location_cache_capacity = 1 << 20;  // entries; cleared when full
  // Where this node's replica-flush sequence starts (30 bits; any value is
  // correct, since versions compare in serial arithmetic): tests start it
  // near the half-way point to check that a new holder's first delta applies.
  uint32_t first_sync_version = 0;
};

class Node {
 public:
  Node(NodeOptions options, Runtime& runtime);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  Worker& worker(WorkerId w) { return *workers_[w]; }
  uint32_t num_workers() const { return static_cast<uint32_t>(workers_.size()); }
  NodeId self() const { return self_; }
  uint32_t num_nodes() const { return num_nodes_; }
  // A one-node cluster: every key is homed here and never leaves, so the
  // workers create keys on first touch on the hot path, and intent, clocks
  // and the sync timer are only counted (nothing to relocate or replicate).
  bool solo() const { return num_nodes_ == 1; }
  ParamStore& store() { return store_; }
  Runtime& runtime() { return runtime_; }
  const ValueLayout& layout() const { return store_.layout(); }
  const Policy& policy() const { return *policy_; }

  // Handles one frame from `from`. A malformed or unexpected frame returns an
  // error (the runtime logs it and drops the peer); nothing is applied then:
  // each handler checks the whole message, against the node's state under
  // the engine lock, before any of it applies, and still sends and wakes what
  // other engine calls queued (no lost wake-up).
  Status OnMessage(NodeId from, std::span<const uint8_t> frame);
  void OnTimer(uint64_t timer_id);

  NodeId HomeOf(Key key) const;
  MetricsSnapshot Metrics();
  size_t PendingOperations();
  size_t DirectoryEntries();  // memory check: entries kept for routing

 private:
  friend class Worker;
  // The owner of a timer-driven sync round's PendingOp (no worker waits for it).
  static constexpr WorkerId kNoWorker = ~WorkerId{0};
  struct PendingOp {
    WorkerId worker;  // kNoWorker: a timer sync round
    MessageType kind;
    uint64_t remaining_keys;
    float* out;  // pulls only
    size_t out_len;
  };
  struct Wakeups {
    std::vector<Parker*> parkers;
    void Fire();
  };
  // One key of a request that waits here for its key to arrive.
  struct Item {
    MessageType type;
    NodeId origin;
    uint64_t op_id;
    uint32_t slot;  // pull: output offset; sync: version | kDropBit
    std::vector<float> values;
  };
  struct Holder {
    NodeId node;
    // Last sync sequence number applied from it; none yet: its first delta applies.
    std::optional<uint32_t> version = std::nullopt;
    uint64_t sent = 0;  // RowDigest of the row it last got from here (0: none)
  };
  // Directory entry at the home: the owner, and the ownership epoch (the
  // number of hand-overs, 16-bit serial arithmetic) so a late owner update
  // never overwrites a newer one.
  struct Owner {
    NodeId node;
    uint16_t epoch;
  };
  struct HeldReplica {
    NodeId owner;
    bool is_static;
    uint64_t last_flush_op = 0;  // the round of its latest flush
    uint32_t deferred = 0;       // timer rounds skipped in a row (significance filter, budget)
    // Deltas flushed while an earlier flush of it was still unanswered (a
    // WaitSync round overlapping a timer round), by round. An answer to an
    // older round lacks them, and they have left the pending delta: the
    // refresh replays them, or the replica would briefly hide its own pushes.
    std::vector<std::pair<uint64_t, std::vector<float>>> unanswered = {};
  };
  // Everything one engine call produces, issued after the lock is released.
  struct Effects {
    Outbox out;
    Wakeups wake;
    bool arm_timer = false;  // start the sync timer (replication/intent is in use)
    size_t pull_values = 0;  // floats a pull request being handled may answer with
  };
  static constexpr uint64_t kSyncTimer = 1;

  // The engine lock for one engine call that builds `fx`. On scope exit,
  // still under the lock, the messages in fx.out join the send queue, so the
  // queue holds every message in the order it was built. Then Flush(fx).
  class EngineLock {
   public:
    EngineLock(Node& node, Effects& fx) : node_(node), fx_(fx) { node_.mu_->lock(); }
    ~EngineLock() {
      node_.StageSends(fx_);
      node_.mu_->unlock();
    }
    EngineLock(const EngineLock&) = delete;
    EngineLock& operator=(const EngineLock&) = delete;

   private:
    Node& node_;
    Effects& fx_;
  };

  // --- node.cc: operations (worker side); node_send_queue.cc: sending;
  // node_barrier.cc: the barrier.
  uint64_t BeginOp(WorkerId w, MessageType kind, uint64_t keys, float* out, size_t out_len);
  bool OpDone(uint64_t op_id);
  void SetWaiting(WorkerId w, bool waiting);
  bool WorkerIdle(WorkerId w);
  // Sends what is queued, wakes, arms the timer. REQUIRES: lock not held and
  // fx staged (built under an EngineLock).
  void Flush(Effects& fx);
  void StageSends(Effects& fx);  // REQUIRES: lock held
  void SendQueued();             // REQUIRES: lock not held
  // Sends m, split by keys into frames of at most the runtime's
  // MaxFrameBytes when larger (SplitByKeys).
  void SendMessage(NodeId to, const Message& m);
  void SendFrame(NodeId to, const Message& m);
  // The floats each key of m carries (what SplitByKeys needs to know).
  std::function<uint32_t(size_t)> ValuesPerKey(const Message& m);
  void ArriveAtBarrier(WorkerId w, uint64_t* generation_out);
  bool BarrierReleased(uint64_t generation);
  void CompleteKeys(uint64_t op_id, uint64_t keys, Effects* fx);
  void ReleaseBarrier(uint64_t generation, Effects* fx);
  Status HandleBarrier(const Message& m);
  // pull_values: a pull response's values, in place in the received frame
  // (copied once, straight into the worker's buffer); empty otherwise.
  Status HandleResponse(const Message& m, std::span<const uint8_t> pull_values);
  Status CheckValueCount(const Message& m, bool rows) const {
    return CheckValueCount(m, rows, m.values.size());
  }
  Status CheckValueCount(const Message& m, bool rows, size_t value_count) const;
  Status CheckDistinctKeys(const Message& m) const;
  static std::string From(const Message& m);  // "<type> from node <src>", for errors
  // That m.op_id is a pending operation of `kind` still expecting `keys` keys.
  // REQUIRES: lock held.
  Status CheckOperation(const Message& m, MessageType kind, uint64_t keys) const;
  void EnsureTimer();

  // --- node_routing.cc: where each key of an operation or request goes.
  // Worker slow path: keys[missing[i]] were not served by the local store.
  Ticket SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                  std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                  const float* in, std::span<float> out);
  Status HandleRequest(const Message& m);
  // A request of this node's own that came back here. REQUIRES: lock held.
  Status CheckReturning(const Message& m) const;
  // REQUIRES (all below): lock held.
  void Dispatch(Key key, Item item, bool via_home, Effects* fx);
  void Apply(Key key, Item& item, Effects* fx);
  void Forward(NodeId dest, Key key, const Item& item, bool via_home, Effects* fx);
  NodeId RemoteDestination(Key key) const;
  bool HasMain(Key key);
  void NoteLocation(Key key, NodeId node);

  // --- node_relocation.cc
  void PlaceKey(Key key, NodeId requester, Effects* fx);
  void HandOver(Key key, NodeId to, uint64_t op_id, Effects* fx);
  void RequestLocalize(Key key, Effects* fx);
  Status HandleHandover(const Message& m);
  Status HandleOwnerUpdate(const Message& m);
  Status HandleReplicaGrant(const Message& m);
  void DrainQueue(Key key, Effects* fx);

  // --- node_replication.cc
  // Flushes the replicas (all of them, or for a timer round those the
  // significance filter does not defer); returns the number of keys sent.
  size_t SyncRound(uint64_t op_id, bool timer, Effects* fx);
  // Timer rounds: the change (UpdateNormSq) a replica must exceed to be
  // flushed within the round budget (negative: every replica may be).
  float RoundThreshold();
  // Whether a timer round skips this replica: its change is within the
  // round's threshold, or insignificant (sync_significance).
  bool DeferFlush(const ParamStore::Entry& e, float threshold) const;
  // Clips a delta about to be flushed (replica_delta_bound.h; counts clips).
  void BoundDelta(float* delta, uint32_t len);
  void ApplySync(Key key, Item& item, Effects* fx);
  Status HandleSyncResponse(const Message& m);
  uint64_t StartWaitSync(WorkerId w, Effects* fx);

  // --- node_intent.cc
  void RecordIntent(WorkerId w, std::span<const Key> keys, Clock start, Clock end);
  void RecordClock(WorkerId w, Clock clock);
  void ActOnIntents(WorkerId w, Effects* fx);
  void RecordLead(Clock lead);

  // node_quiesce.cc: consistent snapshots (checkpoints). See Worker.
  void PauseActions(bool paused);
  bool NothingIncoming();
  void CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows);
  void InstallMainRows(std::span<const Key> keys, std::span<const float> rows);

  Runtime& runtime_;
  const NodeId self_;
  const uint32_t num_nodes_;
  ParamStore store_;
  std::shared_ptr<const Policy> policy_;
  const double sync_period_seconds_;
  static constexpr double kSyncPacing =
      5;  // OnTimer: rounds use at most 1/5 of the protocol context
  const float sync_significance_sq_;
  const uint32_t sync_max_deferred_;
  const uint32_t sync_round_keys_;
  std::vector<float> round_changes_;  // RoundThreshold's scratch
  ReplicaDeltaBound delta_bound_;     // under mu_ (SyncRound)
  const size_t location_cache_capacity_;
  const size_t max_frame_bytes_;  // the runtime's, read once
  std::vector<std::unique_ptr<Worker>> workers_;
  NodeCounters counters_;

  // Engine state, guarded by mu_.
  std::unique_ptr<Mutex> mu_;
  uint64_t next_op_id_ = 1;
  std::unordered_map<uint64_t, PendingOp> ops_;
  std::vector<uint64_t> outstanding_;  // per worker
  std::vector<uint8_t> waiting_;       // per worker: parked or about to park
  std::vector<Clock> clocks_;          // per worker, as last reported
  IntentTable intents_;
  ActionTiming timing_;
  bool timer_armed_ = false;
  bool actions_paused_ = false;  // no new localize requests (checkpoint window)
  uint64_t timer_round_op_ = 0;  // the last timer sync round; a new one waits until it completes
  std::vector<std::pair<NodeId, Message>> send_queue_;  // built, not yet sent; in order
  bool sending_ = false;  // a thread is draining send_queue_ (it sends what others queue)
  std::unordered_map<Key, Owner> directory_;              // at home: owner when not here
  std::unordered_map<Key, NodeId> location_cache_;        // last seen owner elsewhere
  std::unordered_map<Key, std::vector<Item>> incoming_;   // requested, not arrived
  std::unordered_map<Key, std::vector<Holder>> holders_;  // replicas of our main copies
  std::unordered_map<Key, HeldReplica> replicas_;         // replicas we hold
  std::vector<uint64_t> lead_histogram_;                  // intent lead, clocks
  uint32_t sync_seq_ = 0;            // sequence number of this node's replica flushes
  uint64_t barrier_generation_ = 0;  // generation local workers are arriving at
  uint32_t barrier_arrived_ = 0;     // local workers arrived at it
  uint64_t barrier_released_ = 0;    // generations < this are released
  std::unordered_map<uint64_t, uint32_t> coordinator_arrivals_;  // node 0 only
};

}  // namespace augur

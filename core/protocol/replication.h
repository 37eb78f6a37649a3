// Replication: replicas and their synchronisation, on both sides.
//
// Holder side: every sync period (TimerRound) a holder ships each replica's
// delta (the updates pushed since the last flush and, with AdaGrad, their
// squares: optimizer.h, AccumulateDelta) to the main copy with a version; a
// replica without local intent is flushed and dropped. WaitSync runs one
// such round for a worker (StartWaitSync). Idle replicas cost (almost)
// nothing: a zero delta is sent as a poll (the key alone, kNoDeltaBit). Two
// opt-in rules let timer rounds skip replicas (at most sync_max_deferred
// rounds in a row; drops and WaitSync always flush): the significance
// filter and the round budget (NodeOptions; core/README.md). Every flushed
// delta first passes the delta bound (replica_delta_bound.h).
// Owner side: a delta applies only if its version is newer than the last
// one applied from that holder (so it applies exactly once); the owner then
// answers with the fresh row when it differs from the one that holder last
// got (RowDigest), or, when the Policy says the holder is the only node
// still interested, hands it the main copy (an upgrade).
//
// Owns: the replicas held here, the holders of this node's main copies, the
// flush sequence, the delta bound and the timer round in flight.
// Locking: StartWaitSync and the Handle* methods take the engine lock
// themselves; every other method REQUIRES the engine lock held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"
#include "core/codec/message.h"
#include "core/protocol/effects.h"
#include "core/protocol/engine_context.h"
#include "core/protocol/key_request.h"
#include "core/protocol/node_options.h"
#include "core/protocol/replica_delta_bound.h"
#include "core/store/param_store.h"

namespace augur {

class IntentTracker;
class Relocation;
class Routing;

class Replication {
 public:
  Replication(EngineContext& cx, Relocation& relocation, Routing& routing, IntentTracker& intents,
              const NodeOptions& options);
  Replication(const Replication&) = delete;
  Replication& operator=(const Replication&) = delete;

  // Starts a sync round of every replica held here for worker w and sends
  // it; its operation id, or 0 when none is held.
  uint64_t StartWaitSync(WorkerId w);
  Status HandleReplicaGrant(const Message& m);
  Status HandleSyncResponse(const Message& m);

  // REQUIRES (all below): engine lock held.
  // The timer's round, once the previous one was answered (flow control).
  // now: the runtime's clock as the handler started; the round's round trip
  // is timed from it.
  void TimerRound(double now, Effects* fx);
  // At the owner: one key of a holder's flush.
  void ApplySync(Key key, KeyRequest& item, Effects* fx);
  bool HoldsReplica(Key key) const { return replicas_.count(key) > 0; }
  void ForgetReplica(Key key) { replicas_.erase(key); }  // upgraded to the main copy
  // At the owner: the holders of key other than `requester`; *known: whether
  // requester is one.
  uint32_t OtherHolders(Key key, NodeId requester, bool* known) const;
  // At the owner: grants requester a replica of key (and records it).
  void Grant(Key key, NodeId requester, bool known, Effects* fx);
  void ForgetHolders(Key key) { holders_.erase(key); }  // the main copy leaves
  size_t entries() const { return holders_.size() + replicas_.size(); }
  // The owner a replica held here syncs with (null: none held).
  const NodeId* ReplicaOwner(Key key) const {
    auto it = replicas_.find(key);
    return it == replicas_.end() ? nullptr : &it->second.owner;
  }
  // The timer round still unanswered (0: none) and when it was sent.
  uint64_t PendingTimerRound(double* started) const {
    *started = timer_round_started_;
    return cx_.ops.Pending(timer_round_op_) ? timer_round_op_ : 0;
  }

 private:
  struct Holder {
    NodeId node;
    // Last sync sequence number applied from it; none yet: its first delta applies.
    std::optional<uint32_t> version = std::nullopt;
    uint64_t sent = 0;  // RowDigest of the row it last got from here (0: none)
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

  // Flushes the replicas (all of them, or for a timer round those the
  // significance filter does not defer); returns the number of keys sent.
  size_t SyncRound(uint64_t op_id, bool timer, Effects* fx);
  // A sync round's operation over every replica held here (kNoWorker: the timer's).
  uint64_t BeginRound(WorkerId w);
  // Timer rounds: the change (ValueChangeSq) a replica must exceed to be
  // flushed within the round budget (negative: every replica may be).
  float RoundThreshold();
  // Whether a timer round skips this replica: its change is within the
  // round's threshold, or insignificant (sync_significance).
  bool DeferFlush(const ParamStore::Entry& e, float threshold) const;
  // Clips a delta about to be flushed (replica_delta_bound.h; counts clips).
  void BoundDelta(float* delta, uint32_t len);
  // The timer round's last answer arrived: counts its round trip
  // (sync_round_trips, sync_round_trip_micros).
  void NoteRoundTrip();

  EngineContext& cx_;
  Relocation& relocation_;
  Routing& routing_;
  IntentTracker& intents_;
  const float sync_significance_sq_;
  const uint32_t sync_max_deferred_;
  const uint32_t sync_round_keys_;
  std::vector<float> round_changes_;  // RoundThreshold's scratch
  ReplicaDeltaBound delta_bound_;
  uint32_t sync_seq_;               // sequence number of this node's replica flushes
  uint64_t timer_round_op_ = 0;     // the last timer sync round; a new one waits until it completes
  double timer_round_started_ = 0;  // when it was sent (runtime clock): its round trip is timed
  std::unordered_map<Key, std::vector<Holder>> holders_;  // replicas of our main copies
  std::unordered_map<Key, HeldReplica> replicas_;         // replicas we hold
};

}  // namespace augur

// Node: one parameter-server node's core: store, workers and protocol engine.
//
// Owns the ParamStore, the Worker handles and the protocol engine; reaches
// the outside only through the injected Runtime. The runtime delivers
// messages via OnMessage and timers via OnTimer from its protocol context;
// workers call in from their own contexts, through the NodePort interface
// (core/api/node_port.h) that Node implements.
//
// Techniques, chosen per key by the Policy:
//  - classic: every key lives at HomeNode(key), created there on first touch;
//  - relocation: the home node's directory records owners that are not the
//    home; the old owner hands the row over (3 messages); operations on a
//    key in transfer queue at the receiver and apply in arrival order;
//    requests reaching a node that no longer owns the key are forwarded via
//    the home; location caches save the home hop;
//  - replication: replicas accumulate deltas, flushed to the main copy every
//    sync period with a version so each delta applies exactly once;
//  - intent: signals activate per ActionTiming and trigger localize
//    requests; the owner decides relocate or replicate.
//
// The engine, one class per concept, each stating what it owns and its
// locking (all share ONE engine lock, engine_context.h):
//   engine_context.h   shared facts, the engine lock, Flush; EngineLock
//   operation_table.h  pending operations, waiting workers
//   send_queue.h       outgoing messages in build order, frame splitting
//   routing.h          where a key's request goes; remote operations, answers
//   relocation.h       directory, keys in transfer, hand-overs, placement
//   replication.h      replicas held and granted, sync rounds
//   intent_tracker.h   intent signals, action timing, workers' clocks
//   barrier.h          the global barrier
//   quiesce.h          pausing actions and row snapshots (checkpoints)
//   stall_watchdog.h   operations that never complete fail the run
// node.cc wires them and dispatches messages; node_port.cc is the workers' side.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/api/node_port.h"
#include "core/api/worker.h"
#include "core/base/status.h"
#include "core/base/value_layout.h"
#include "core/codec/codec.h"
#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"
#include "core/policy/policy.h"
#include "core/protocol/barrier.h"
#include "core/protocol/engine_context.h"
#include "core/protocol/intent_tracker.h"
#include "core/protocol/node_options.h"
#include "core/protocol/quiesce.h"
#include "core/protocol/relocation.h"
#include "core/protocol/replication.h"
#include "core/protocol/routing.h"
#include "core/protocol/stall_watchdog.h"
#include "core/runtime/runtime.h"
#include "core/store/param_store.h"

namespace augur {

class Node final : private NodePort {
 public:
  Node(NodeOptions options, Runtime& runtime);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  Worker& worker(WorkerId w) { return *workers_[w]; }
  uint32_t num_workers() const { return static_cast<uint32_t>(workers_.size()); }
  NodeId self() const { return cx_.self; }
  uint32_t num_nodes() const { return cx_.num_nodes; }
  // A one-node cluster: every key is homed here and never leaves, so the
  // workers create keys on first touch on the hot path, and intent, clocks
  // and the sync timer are only counted (nothing to relocate or replicate).
  bool solo() const { return cx_.solo(); }
  ParamStore& store() { return store_; }
  Runtime& runtime() { return cx_.runtime; }
  const ValueLayout& layout() const { return store_.layout(); }
  const Policy& policy() const { return *policy_; }

  // Handles one frame from `from`. A malformed or unexpected frame returns an
  // error (the runtime logs it and drops the peer); nothing is applied then:
  // each handler checks the whole message, against the node's state under
  // the engine lock, before any of it applies, and still sends and wakes what
  // other engine calls queued (no lost wake-up).
  // A bundle (codec.h) is decoded and checked whole, its messages then
  // handled in order with the node's sends held, so what they produce for
  // one peer leaves as one frame; a message its handler refuses stops the
  // bundle there (those before it applied, as if they had come alone).
  Status OnMessage(NodeId from, std::span<const uint8_t> frame);
  // Frames from one peer that arrived together: OnMessage on each in order,
  // sends held across them (stops at the first error).
  Status OnMessages(NodeId from, std::span<const std::vector<uint8_t>> frames);
  // Every sync round (the sync timer) first runs the stall watchdog
  // (stall_watchdog.h): a stall fails the run (Runtime::Fail) and stops the
  // rounds.
  void OnTimer(uint64_t timer_id);
  // The stall watchdog's check alone, for a runtime that calls it on a tick
  // of its own (TCP: a cluster whose policy runs no sync timer). From the
  // protocol context, as OnTimer.
  void CheckStalls();
  // The watchdog's limit (NodeOptions::stall_timeout_seconds; 0: off).
  double stall_timeout_seconds() const { return watchdog_.limit_seconds(); }
  // Sends held across several OnMessages/OnTimer calls: what they produce
  // for one peer leaves as one frame at the matching ReleaseSends (which
  // sends it). For a protocol thread that handles a backlog of frames from
  // several peers in one wake-up. Calls nest. A worker's own messages are
  // not held: they leave at once, with what the round has staged before
  // them. REQUIRES: the protocol context.
  void HoldSends();
  void ReleaseSends();

  NodeId HomeOf(Key key) const { return cx_.HomeOf(key); }
  MetricsSnapshot Metrics() override;
  size_t PendingOperations();
  size_t DirectoryEntries();  // memory check: entries kept for routing

 private:
  // NodePort (node_port.cc): what the workers ask of the engine.
  Ticket SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                  std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                  const float* in, std::span<float> out) override;
  bool OpDone(uint64_t op_id) override;
  bool WorkerIdle(WorkerId w) override;
  void SetWaiting(WorkerId w, bool waiting, uint64_t op, double since) override;
  void RecordIntents(WorkerId w, std::span<const IntentSignal> signals) override;
  void RecordClock(WorkerId w, Clock clock) override;
  uint64_t StartWaitSync(WorkerId w) override;
  uint64_t ArriveAtBarrier(WorkerId w) override;
  bool BarrierReleased(uint64_t generation) override;
  void PauseActions(bool paused) override;
  bool NothingIncoming() override;
  void CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) override;
  void InstallMainRows(std::span<const Key> keys, std::span<const float> rows) override;

  // A decoded frame whose sender fields match the connection it came on.
  Result<FrameView> DecodeFrom(NodeId from, std::span<const uint8_t> frame);
  Status Dispatch(FrameView& v);  // to the handler of its type

  // OnTimer: rounds use at most 1/kSyncPacing of the protocol context.
  static constexpr double kSyncPacing = 5;

  ParamStore store_;
  std::shared_ptr<const Policy> policy_;
  NodeCounters counters_;
  EngineContext cx_;
  // The parts reference each other; each is used only once all are built.
  Routing routing_;
  Relocation relocation_;
  Replication replication_;
  IntentTracker intents_;
  Barrier barrier_;
  Quiesce quiesce_;
  StallWatchdog watchdog_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace augur

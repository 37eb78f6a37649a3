// Node: one parameter-server node's core: store, workers and protocol engine.
//
// Owns the ParamStore and the Worker handles; reaches the outside only through
// the injected Runtime. The runtime delivers messages via OnMessage from its
// protocol context; workers call in from their own contexts. Engine state
// (pending operations, barrier, intents) is guarded by one runtime-provided
// Mutex whose critical sections never call into the runtime: messages and
// wake-ups are collected under the lock and issued after it is released.
//
// Technique in this version: classic static partitioning (REFERENCE §2.1):
// every key lives at HomeNode(key) and is created there on first touch.
#pragma once

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/api/worker.h"
#include "core/base/status.h"
#include "core/base/value_layout.h"
#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"
#include "core/protocol/intent_table.h"
#include "core/runtime/runtime.h"
#include "core/store/param_store.h"

namespace augur {

struct NodeOptions {
  uint32_t workers = 1;
  ValueLayout layout;
  ParamStore::Initializer init;  // null: zeros
  OptimizerConfig optimizer;     // how pushes apply (default: additive)
  uint32_t store_stripes = 64;
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
  ParamStore& store() { return store_; }
  Runtime& runtime() { return runtime_; }
  const ValueLayout& layout() const { return store_.layout(); }

  // Handles one frame from `from`. A malformed or unexpected frame returns an
  // error (the runtime logs it and drops the peer); nothing is applied then.
  Status OnMessage(NodeId from, std::span<const uint8_t> frame);
  void OnTimer(uint64_t timer_id);

  // True when this node serves the key from its own store.
  bool IsLocal(Key key) const;
  NodeId HomeOf(Key key) const;

  MetricsSnapshot Metrics() const;
  // Operations issued but not yet completed, over all workers.
  size_t PendingOperations();

 private:
  friend class Worker;
  struct PendingOp {
    WorkerId worker;
    MessageType kind;
    uint64_t remaining_keys;
    float* out;  // pulls only
    size_t out_len;
  };
  struct Wakeups {
    std::vector<Parker*> parkers;
    void Fire();
  };

  // Engine entry points used by Worker.
  uint64_t BeginOp(WorkerId w, MessageType kind, uint64_t keys, float* out, size_t out_len);
  bool OpDone(uint64_t op_id);
  void SetWaiting(WorkerId w, bool waiting);
  bool WorkerIdle(WorkerId w);
  void SendMessage(NodeId to, const Message& m);
  void ArriveAtBarrier(WorkerId w, uint64_t* generation_out);
  bool BarrierReleased(uint64_t generation);
  void RecordIntent(WorkerId w, std::span<const Key> keys, Clock start, Clock end);
  void RecordClock(WorkerId w, Clock clock);

  // Message handlers; REQUIRES: called outside the engine lock.
  Status HandleRequest(const Message& m);
  Status HandleResponse(const Message& m);
  Status HandleBarrier(const Message& m);
  Status CheckValueCount(const Message& m) const;
  // REQUIRES: engine lock held.
  void CompleteKeys(uint64_t op_id, uint64_t keys, Wakeups* wake);
  void ReleaseBarrier(uint64_t generation, std::vector<std::pair<NodeId, Message>>* out,
                      Wakeups* wake);

  Runtime& runtime_;
  const NodeId self_;
  const uint32_t num_nodes_;
  ParamStore store_;
  std::vector<std::unique_ptr<Worker>> workers_;
  NodeCounters counters_;

  // Engine state, guarded by mu_.
  std::unique_ptr<Mutex> mu_;
  uint64_t next_op_id_ = 1;
  std::unordered_map<uint64_t, PendingOp> ops_;
  std::vector<uint64_t> outstanding_;  // per worker
  std::vector<uint8_t> waiting_;       // per worker: parked or about to park
  IntentTable intents_;
  uint64_t barrier_generation_ = 0;    // generation local workers are arriving at
  uint32_t barrier_arrived_ = 0;       // local workers arrived at it
  uint64_t barrier_released_ = 0;      // generations < this are released
  std::unordered_map<uint64_t, uint32_t> coordinator_arrivals_;  // node 0 only
};

}  // namespace augur

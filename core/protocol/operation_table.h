// OperationTable: a node's pending operations and the workers waiting on them.
//
// Owns one entry per operation started here and not yet complete (a
// worker's pull, push, set or WaitSync round, or a timer sync round that no
// worker waits for), each counting the keys still to be answered and
// keeping its first few keys (for the stall watchdog's report); and, per
// worker, its number of pending operations, whether it is parked (or about
// to park), what for and since when. Completing an operation's last key
// wakes its worker if it waits (through Effects: the wake-up is issued
// after the lock).
// Locking: not thread-safe; every method REQUIRES the engine lock held.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"
#include "core/codec/message.h"
#include "core/protocol/effects.h"
#include "core/runtime/runtime.h"

namespace augur {

class OperationTable {
 public:
  // The owner of a timer-driven sync round's operation (no worker waits for it).
  static constexpr WorkerId kNoWorker = ~WorkerId{0};
  static constexpr size_t kFirstKeys = 3;  // keys an operation keeps for reports
  struct PendingOp {
    WorkerId worker;  // kNoWorker: a timer sync round
    MessageType kind;
    uint64_t remaining_keys;
    float* out;  // pulls only
    size_t out_len;
    uint64_t keys;                           // at the start
    std::array<Key, kFirstKeys> first_keys;  // the first first_key_count of them
    uint32_t first_key_count;
  };

  // parkers[w] is worker w's (EngineContext owns them; they outlive the table).
  explicit OperationTable(std::vector<Parker*> parkers);

  // An operation of `keys` keys; `first_keys`: its first ones (at most
  // kFirstKeys are kept).
  uint64_t Begin(WorkerId w, MessageType kind, uint64_t keys, float* out, size_t out_len,
                 std::span<const Key> first_keys);
  // Counts `keys` more keys of op answered; the last one completes it.
  void Complete(uint64_t op_id, uint64_t keys, Effects* fx);
  const PendingOp* Find(uint64_t op_id) const;
  bool Pending(uint64_t op_id) const { return ops_.count(op_id) > 0; }
  size_t size() const { return ops_.size(); }
  // That m.op_id is a pending operation of `kind` still expecting `keys` keys.
  Status Check(const Message& m, MessageType kind, uint64_t keys) const;

  uint32_t workers() const { return static_cast<uint32_t>(parkers_.size()); }
  bool Idle(WorkerId w) const { return outstanding_[w] == 0; }
  // NodePort::SetWaiting: op and since describe the wait while waiting.
  void SetWaiting(WorkerId w, bool waiting, uint64_t op, double since) {
    waiting_[w] = waiting ? 1 : 0;
    wait_op_[w] = waiting ? op : 0;
    wait_since_[w] = since;
  }
  // What worker w waits for (NodePort::SetWaiting's op: an operation id or
  // NodePort::kAllOperations) and since when; 0 when it waits for no
  // operation.
  uint64_t WaitingFor(WorkerId w, double* since) const {
    *since = wait_since_[w];
    return waiting_[w] ? wait_op_[w] : 0;
  }
  // The pending operation that WaitingFor's `op` of worker w stands for
  // (for kAllOperations its oldest; a scan, for reports), or 0 if none.
  uint64_t Unfinished(WorkerId w, uint64_t op) const;
  // Wakes every waiting worker (a barrier opened, nothing is incoming).
  void WakeWaiting(Effects* fx) const;

 private:
  std::vector<Parker*> parkers_;
  uint64_t next_op_id_ = 1;
  std::unordered_map<uint64_t, PendingOp> ops_;
  std::vector<uint64_t> outstanding_;  // per worker
  std::vector<uint8_t> waiting_;       // per worker: parked or about to park
  std::vector<uint64_t> wait_op_;      // per worker, while waiting: NodePort::SetWaiting's op
  std::vector<double> wait_since_;     // per worker, while waiting: since when
};

}  // namespace augur

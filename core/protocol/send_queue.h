// SendQueue: a node's outgoing messages, in the order they were built.
//
// Owns the node-wide queue of messages built but not yet sent. Engine calls
// stage their messages (Stage, under the engine lock, on EngineLock's exit),
// so the queue holds every message in build order whichever thread built
// it; one thread at a time drains it (SendQueued, lock not held), so they
// also leave in that order. The relocation protocol depends on it: a
// hand-over must reach the home before a later request for the same key
// from the same node, even when a worker builds the request while the
// protocol thread is still sending the hand-over. A message larger than the
// runtime's frame limit leaves in several frames, each key whole
// (message_split.h).
// Locking: the queue, the draining flag and the hold count are guarded by the
// engine lock.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"
#include "core/protocol/outbox.h"
#include "core/runtime/runtime.h"
#include "core/store/param_store.h"

namespace augur {

class SendQueue {
 public:
  // `mu` is the engine lock; all references outlive the queue.
  SendQueue(Runtime& runtime, Mutex& mu, const ParamStore& store, NodeCounters& counters);
  SendQueue(const SendQueue&) = delete;
  SendQueue& operator=(const SendQueue&) = delete;

  // Moves out's messages to the end of the queue. REQUIRES: engine lock held.
  void Stage(Outbox& out);
  // Sends what is queued, unless another thread is draining the queue (it
  // then sends ours too) or a Hold is open and `despite_hold` is false.
  // REQUIRES: engine lock not held.
  void SendQueued(bool despite_hold = false);
  // While at least one Hold is open, SendQueued leaves the queue as it is
  // (unless a thread is already draining it, or the call is a worker's,
  // despite_hold); the last Release drains what is left.
  // Handlers hold while they handle several frames that arrived together.
  // Release sends, which calls the runtime, so it is called explicitly and
  // never from a destructor: a runtime call may throw (a SimGrid actor killed
  // at the end of a simulation unwinds from its next simcall), and a throw
  // out of a destructor terminates the process.
  // REQUIRES: engine lock not held.
  void Hold();
  void Release();

 private:
  // Sends one drained batch: per destination (in order of first appearance),
  // its messages in order, as bundles of at most the frame limit.
  void SendBatch(const std::vector<std::pair<NodeId, Message>>& batch);
  // Sends m, split by keys into frames of at most the runtime's
  // MaxFrameBytes when larger (SplitByKeys).
  void SendMessage(NodeId to, const Message& m);
  void SendFrame(NodeId to, const Message& m);
  void SendBundle(NodeId to, std::span<const Message* const> messages, size_t bytes);
  // The floats each key of m carries (what SplitByKeys needs to know).
  std::function<uint32_t(size_t)> ValuesPerKey(const Message& m) const;

  Runtime& runtime_;
  Mutex& mu_;
  const ParamStore& store_;
  NodeCounters& counters_;
  const size_t max_frame_bytes_;  // the runtime's, read once
  // Guarded by mu_.
  std::vector<std::pair<NodeId, Message>> queue_;  // built, not yet sent; in order
  bool sending_ = false;  // a thread is draining queue_ (it sends what others queue)
  int held_ = 0;          // open Holds
  // SendBatch's scratch (used by the draining thread only).
  std::vector<NodeId> dests_;
  std::vector<const Message*> group_;
};

}  // namespace augur

// Node's side of NodePort (core/api/node_port.h): each call goes to the
// engine part of its concept.
#include "core/protocol/node.h"

namespace augur {

Ticket Node::SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                      std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                      const float* in, std::span<float> out) {
  return routing_.SlowPath(w, type, keys, offsets, missing, in, out);
}

bool Node::OpDone(uint64_t op_id) {
  LockGuard<Mutex> g(cx_.mu());
  return !cx_.ops.Pending(op_id);
}

bool Node::WorkerIdle(WorkerId w) {
  LockGuard<Mutex> g(cx_.mu());
  return cx_.ops.Idle(w);
}

void Node::SetWaiting(WorkerId w, bool waiting, uint64_t op, double since) {
  LockGuard<Mutex> g(cx_.mu());
  cx_.ops.SetWaiting(w, waiting, op, since);
}

void Node::RecordIntents(WorkerId w, std::span<const IntentSignal> signals) {
  intents_.RecordIntents(w, signals);
}

void Node::RecordClock(WorkerId w, Clock clock) { intents_.RecordClock(w, clock); }

uint64_t Node::StartWaitSync(WorkerId w) { return replication_.StartWaitSync(w); }

uint64_t Node::ArriveAtBarrier(WorkerId /*w*/) { return barrier_.Arrive(); }

bool Node::BarrierReleased(uint64_t generation) { return barrier_.Released(generation); }

void Node::PauseActions(bool paused) { quiesce_.PauseActions(paused); }

bool Node::NothingIncoming() { return quiesce_.NothingIncoming(); }

void Node::CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) {
  quiesce_.CopyMainRows(keys, rows);
}

void Node::InstallMainRows(std::span<const Key> keys, std::span<const float> rows) {
  quiesce_.InstallMainRows(keys, rows);
}

}  // namespace augur

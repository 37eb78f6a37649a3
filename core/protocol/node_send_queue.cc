// Node: the send queue (see node.h). Messages built under the engine lock
// join one node-wide queue in the order they were built (StageSends); one
// thread at a time drains it (SendQueued), so they leave the node in that
// order whichever thread built them. A message larger than the runtime's
// frame limit leaves in several frames, each key whole (message_split.h).
#include "core/base/check.h"
#include "core/codec/codec.h"
#include "core/protocol/message_split.h"
#include "core/protocol/node.h"

namespace augur {

void Node::SendMessage(NodeId to, const Message& m) {
  if (EncodedSize(m) > max_frame_bytes_ && !m.keys.empty()) {
    // A sync round, refresh or hand-over larger than a frame: in several,
    // each key whole (core/protocol/message_split.h).
    for (const Message& part : SplitByKeys(m, max_frame_bytes_, ValuesPerKey(m)))
      SendFrame(to, part);
    return;
  }
  SendFrame(to, m);
}

void Node::SendFrame(NodeId to, const Message& m) {
  std::vector<uint8_t> frame = Encode(m);
  counters_.messages_sent.fetch_add(1, std::memory_order_relaxed);
  counters_.bytes_sent.fetch_add(frame.size(), std::memory_order_relaxed);
  runtime_.Send(to, std::move(frame));
}

std::function<uint32_t(size_t)> Node::ValuesPerKey(const Message& m) {
  switch (m.type) {
    case MessageType::kPullResponse:
    case MessageType::kPushRequest:
    case MessageType::kSetRequest:
      return [this, &m](size_t i) { return layout().Length(m.keys[i]); };
    case MessageType::kSyncRequest:
      return [this, &m](size_t i) {
        return SyncCarriesDelta(m.slots[i]) ? layout().Length(m.keys[i]) : 0;
      };
    case MessageType::kHandover:
    case MessageType::kReplicaGrant:
    case MessageType::kSyncResponse:
      return [this, &m](size_t i) { return store_.RowLength(m.keys[i]); };
    default:
      return [](size_t) { return 0u; };
  }
}

void Node::StageSends(Effects& fx) {
  for (auto& entry : fx.out.messages()) send_queue_.push_back(std::move(entry));
  fx.out.messages().clear();
}

void Node::SendQueued() {
  std::vector<std::pair<NodeId, Message>> batch;
  {
    LockGuard<Mutex> g(*mu_);
    if (sending_ || send_queue_.empty()) return;  // the thread sending now takes ours too
    sending_ = true;
  }
  for (;;) {
    {
      LockGuard<Mutex> g(*mu_);
      batch.clear();
      batch.swap(send_queue_);
      if (batch.empty()) {
        sending_ = false;
        return;
      }
    }
    for (const auto& [to, m] : batch) SendMessage(to, m);
  }
}

void Node::Flush(Effects& fx) {
  AUGUR_CHECK(fx.out.empty(), "messages built outside an EngineLock would leave out of order");
  SendQueued();
  fx.wake.Fire();
  if (fx.arm_timer) EnsureTimer();
}

}  // namespace augur

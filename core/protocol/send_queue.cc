#include "core/protocol/send_queue.h"

#include "core/codec/codec.h"
#include "core/protocol/message_split.h"

namespace augur {

SendQueue::SendQueue(Runtime& runtime, Mutex& mu, const ParamStore& store, NodeCounters& counters)
    : runtime_(runtime),
      mu_(mu),
      store_(store),
      counters_(counters),
      max_frame_bytes_(runtime.MaxFrameBytes()) {}

void SendQueue::SendMessage(NodeId to, const Message& m) {
  if (EncodedSize(m) > max_frame_bytes_ && !m.keys.empty()) {
    // A sync round, refresh or hand-over larger than a frame: in several,
    // each key whole (core/protocol/message_split.h).
    for (const Message& part : SplitByKeys(m, max_frame_bytes_, ValuesPerKey(m)))
      SendFrame(to, part);
    return;
  }
  SendFrame(to, m);
}

void SendQueue::SendFrame(NodeId to, const Message& m) {
  std::vector<uint8_t> frame = Encode(m);
  counters_.Add(NodeCounter::kMessagesSent);
  counters_.Add(NodeCounter::kBytesSent, frame.size());
  runtime_.Send(to, std::move(frame));
}

std::function<uint32_t(size_t)> SendQueue::ValuesPerKey(const Message& m) const {
  switch (m.type) {
    case MessageType::kPullResponse:
    case MessageType::kPushRequest:
    case MessageType::kSetRequest:
      return [this, &m](size_t i) { return store_.layout().Length(m.keys[i]); };
    case MessageType::kSyncRequest:
      return [this, &m](size_t i) {
        return SyncCarriesDelta(m.slots[i]) ? store_.DeltaLength(m.keys[i]) : 0;
      };
    case MessageType::kHandover:
    case MessageType::kReplicaGrant:
    case MessageType::kSyncResponse:
      return [this, &m](size_t i) { return store_.RowLength(m.keys[i]); };
    default:
      return [](size_t) { return 0u; };
  }
}

void SendQueue::Stage(Outbox& out) {
  for (auto& entry : out.messages()) queue_.push_back(std::move(entry));
  out.messages().clear();
}

void SendQueue::SendQueued() {
  std::vector<std::pair<NodeId, Message>> batch;
  {
    LockGuard<Mutex> g(mu_);
    if (sending_ || queue_.empty()) return;  // the thread sending now takes ours too
    sending_ = true;
  }
  for (;;) {
    {
      LockGuard<Mutex> g(mu_);
      batch.clear();
      batch.swap(queue_);
      if (batch.empty()) {
        sending_ = false;
        return;
      }
    }
    for (const auto& [to, m] : batch) SendMessage(to, m);
  }
}

}  // namespace augur

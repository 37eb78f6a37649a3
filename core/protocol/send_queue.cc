#include "core/protocol/send_queue.h"

#include <algorithm>

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

void SendQueue::SendBundle(NodeId to, std::span<const Message* const> messages, size_t bytes) {
  if (messages.size() == 1) {
    SendFrame(to, *messages[0]);
    return;
  }
  std::vector<uint8_t> frame;
  frame.reserve(EncodedBundleSize(bytes));
  EncodeBundle(runtime_.self(), messages, &frame);
  counters_.Add(NodeCounter::kMessagesSent);
  counters_.Add(NodeCounter::kBundledMessages, messages.size());
  counters_.Add(NodeCounter::kBytesSent, frame.size());
  runtime_.Send(to, std::move(frame));
}

void SendQueue::SendBatch(const std::vector<std::pair<NodeId, Message>>& batch) {
  dests_.clear();
  for (const auto& entry : batch)
    if (std::find(dests_.begin(), dests_.end(), entry.first) == dests_.end())
      dests_.push_back(entry.first);
  for (NodeId to : dests_) {
    group_.clear();
    size_t bytes = 0;
    for (const auto& [dest, m] : batch) {
      if (dest != to) continue;
      const size_t size = EncodedSize(m);
      if (EncodedBundleSize(bytes + size) > max_frame_bytes_ && !group_.empty()) {
        SendBundle(to, group_, bytes);
        group_.clear();
        bytes = 0;
      }
      if (size > max_frame_bytes_) {  // alone, split by keys
        SendMessage(to, m);
        continue;
      }
      group_.push_back(&m);
      bytes += size;
    }
    if (!group_.empty()) SendBundle(to, group_, bytes);
  }
}

std::function<uint32_t(size_t)> SendQueue::ValuesPerKey(const Message& m) const {
  switch (m.type) {
    case MessageType::kPullResponse:
    case MessageType::kSetRequest:
      return [this, &m](size_t i) { return store_.layout().Length(m.keys[i]); };
    case MessageType::kPushRequest:
      return [this, &m](size_t i) { return store_.DeltaLength(m.keys[i]); };
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

void SendQueue::SendQueued(bool despite_hold) {
  std::vector<std::pair<NodeId, Message>> batch;
  {
    LockGuard<Mutex> g(mu_);
    // The thread sending now takes ours too; the last Release sends held ones.
    if (sending_ || (held_ > 0 && !despite_hold) || queue_.empty()) return;
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
    SendBatch(batch);
  }
}

void SendQueue::Hold() {
  LockGuard<Mutex> g(mu_);
  ++held_;
}

void SendQueue::Release() {
  {
    LockGuard<Mutex> g(mu_);
    --held_;
  }
  SendQueued();
}

}  // namespace augur

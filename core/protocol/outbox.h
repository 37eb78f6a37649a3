// Outbox: messages a handler builds under the engine lock and sends after it.
//
// To() returns the message for (destination, type, origin, op id, aux),
// creating it on first use, so one handler call sends at most one message
// per destination and kind: batching by construction. Messages are sent in
// creation order, which the relocation protocol relies on (an owner update
// to the home node leaves before any request forwarded there later).
#pragma once

#include <utility>
#include <vector>

#include "core/codec/message.h"

namespace augur {

class Outbox {
 public:
  Message& To(NodeId dest, MessageType type, NodeId src, NodeId origin, uint64_t op_id,
              uint32_t aux = 0) {
    for (auto& [d, m] : messages_) {
      if (d == dest && m.type == type && m.origin == origin && m.op_id == op_id && m.aux == aux)
        return m;
    }
    Message m;
    m.type = type;
    m.src = src;
    m.origin = origin;
    m.op_id = op_id;
    m.aux = aux;
    messages_.emplace_back(dest, std::move(m));
    return messages_.back().second;
  }
  // Acknowledgements (push/set acks, sync responses) count keys in aux, so
  // they are matched without it.
  Message& Ack(NodeId dest, MessageType type, NodeId src, uint64_t op_id) {
    for (auto& [d, m] : messages_)
      if (d == dest && m.type == type && m.op_id == op_id) return m;
    Message m;
    m.type = type;
    m.src = src;
    m.origin = src;
    m.op_id = op_id;
    messages_.emplace_back(dest, std::move(m));
    return messages_.back().second;
  }
  std::vector<std::pair<NodeId, Message>>& messages() { return messages_; }
  bool empty() const { return messages_.empty(); }

 private:
  std::vector<std::pair<NodeId, Message>> messages_;
};

}  // namespace augur

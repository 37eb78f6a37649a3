#include "core/protocol/node.h"

#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/codec/codec.h"
#include "core/protocol/home.h"

namespace augur {

namespace {
std::string From(const Message& m) {
  return std::string(MessageTypeName(m.type)) + " from node " + std::to_string(m.src);
}
}  // namespace

void Node::Wakeups::Fire() {
  for (Parker* p : parkers) p->Unpark();
  parkers.clear();
}

Node::Node(NodeOptions options, Runtime& runtime)
    : runtime_(runtime),
      self_(runtime.self()),
      num_nodes_(runtime.num_nodes()),
      store_(std::move(options.layout), std::move(options.init), options.optimizer,
             options.store_stripes),
      mu_(runtime.NewMutex()),
      outstanding_(options.workers, 0),
      waiting_(options.workers, 0),
      intents_(options.workers) {
  AUGUR_CHECK(options.workers > 0, "a node needs at least one worker");
  AUGUR_CHECK(num_nodes_ > 0 && self_ < num_nodes_, "node %u of %u", self_, num_nodes_);
  for (WorkerId w = 0; w < options.workers; ++w)
    workers_.push_back(std::make_unique<Worker>(*this, w, runtime.NewParker()));
}

NodeId Node::HomeOf(Key key) const { return HomeNode(key, num_nodes_); }
bool Node::IsLocal(Key key) const { return HomeOf(key) == self_; }

MetricsSnapshot Node::Metrics() const {
  MetricsSnapshot s;
  s.messages_sent = counters_.messages_sent.load(std::memory_order_relaxed);
  s.bytes_sent = counters_.bytes_sent.load(std::memory_order_relaxed);
  s.messages_received = counters_.messages_received.load(std::memory_order_relaxed);
  s.bytes_received = counters_.bytes_received.load(std::memory_order_relaxed);
  s.intents = counters_.intents.load(std::memory_order_relaxed);
  s.intent_keys = counters_.intent_keys.load(std::memory_order_relaxed);
  for (const auto& w : workers_) {
    s.local_accesses += w->local_accesses();
    s.remote_accesses += w->remote_accesses();
  }
  return s;
}

size_t Node::PendingOperations() {
  LockGuard<Mutex> g(*mu_);
  return ops_.size();
}

void Node::SendMessage(NodeId to, const Message& m) {
  std::vector<uint8_t> frame = Encode(m);
  counters_.messages_sent.fetch_add(1, std::memory_order_relaxed);
  counters_.bytes_sent.fetch_add(frame.size(), std::memory_order_relaxed);
  runtime_.Send(to, std::move(frame));
}

uint64_t Node::BeginOp(WorkerId w, MessageType kind, uint64_t keys, float* out, size_t out_len) {
  LockGuard<Mutex> g(*mu_);
  const uint64_t id = next_op_id_++;
  ops_.emplace(id, PendingOp{w, kind, keys, out, out_len});
  ++outstanding_[w];
  return id;
}

bool Node::OpDone(uint64_t op_id) {
  LockGuard<Mutex> g(*mu_);
  return ops_.find(op_id) == ops_.end();
}

bool Node::WorkerIdle(WorkerId w) {
  LockGuard<Mutex> g(*mu_);
  return outstanding_[w] == 0;
}

void Node::SetWaiting(WorkerId w, bool waiting) {
  LockGuard<Mutex> g(*mu_);
  waiting_[w] = waiting ? 1 : 0;
}

void Node::CompleteKeys(uint64_t op_id, uint64_t keys, Wakeups* wake) {
  auto it = ops_.find(op_id);
  AUGUR_CHECK(it != ops_.end(), "op %llu vanished", static_cast<unsigned long long>(op_id));
  PendingOp& op = it->second;
  op.remaining_keys -= keys;
  if (op.remaining_keys > 0) return;
  const WorkerId w = op.worker;
  ops_.erase(it);
  --outstanding_[w];
  if (waiting_[w]) wake->parkers.push_back(workers_[w]->parker_.get());
}

void Node::RecordIntent(WorkerId w, std::span<const Key> keys, Clock start, Clock end) {
  counters_.intents.fetch_add(1, std::memory_order_relaxed);
  counters_.intent_keys.fetch_add(keys.size(), std::memory_order_relaxed);
  LockGuard<Mutex> g(*mu_);
  intents_.Add(w, keys, start, end);
}

void Node::RecordClock(WorkerId w, Clock clock) {
  LockGuard<Mutex> g(*mu_);
  intents_.Expire(w, clock);
}

void Node::OnTimer(uint64_t /*timer_id*/) {}

Status Node::OnMessage(NodeId from, std::span<const uint8_t> frame) {
  Result<Message> decoded = Decode(frame);
  if (!decoded.ok()) return decoded.status().WithContext("frame from node " + std::to_string(from));
  const Message& m = *decoded;
  if (m.src != from || m.origin >= num_nodes_) {
    return Status::Error(From(m) + ": sender fields (src " + std::to_string(m.src) + ", origin " +
                         std::to_string(m.origin) + ") do not match connection to node " +
                         std::to_string(from));
  }
  counters_.messages_received.fetch_add(1, std::memory_order_relaxed);
  counters_.bytes_received.fetch_add(frame.size(), std::memory_order_relaxed);
  switch (m.type) {
    case MessageType::kPullRequest:
    case MessageType::kPushRequest:
    case MessageType::kSetRequest:
      return HandleRequest(m);
    case MessageType::kPullResponse:
    case MessageType::kPushAck:
    case MessageType::kSetAck:
      return HandleResponse(m);
    case MessageType::kBarrierArrive:
    case MessageType::kBarrierRelease:
      return HandleBarrier(m);
  }
  return Status::Error(From(m) + ": unhandled type");
}

Status Node::CheckValueCount(const Message& m) const {
  uint64_t need = 0;
  for (Key k : m.keys) need += layout().Length(k);
  if (need != m.values.size()) {
    return Status::Error(From(m) + ": " + std::to_string(m.values.size()) +
                         " values for keys needing " + std::to_string(need));
  }
  return Status::Ok();
}

Status Node::HandleRequest(const Message& m) {
  for (Key k : m.keys) {
    if (!IsLocal(k)) {
      return Status::Error(From(m) + ": key " + std::to_string(k) + " is homed at node " +
                           std::to_string(HomeOf(k)) + ", not here");
    }
  }
  Message reply;
  reply.src = self_;
  reply.origin = m.origin;
  reply.op_id = m.op_id;
  if (m.type == MessageType::kPullRequest) {
    if (m.slots.size() != m.keys.size()) return Status::Error(From(m) + ": slots do not match keys");
    reply.type = MessageType::kPullResponse;
    reply.keys = m.keys;
    reply.slots = m.slots;
    uint64_t total = 0;
    for (Key k : m.keys) total += layout().Length(k);
    reply.values.resize(total);
    float* at = reply.values.data();
    for (Key k : m.keys) {
      store_.Pull(k, at, /*create=*/true);
      at += layout().Length(k);
    }
  } else {
    if (Status s = CheckValueCount(m); !s.ok()) return s;
    const bool push = m.type == MessageType::kPushRequest;
    const float* at = m.values.data();
    for (Key k : m.keys) {
      if (push) {
        store_.Push(k, at, /*create=*/true);
      } else {
        store_.Set(k, at, /*create=*/true);
      }
      at += layout().Length(k);
    }
    reply.type = push ? MessageType::kPushAck : MessageType::kSetAck;
    reply.aux = static_cast<uint32_t>(m.keys.size());
  }
  SendMessage(m.origin, reply);
  return Status::Ok();
}

Status Node::HandleResponse(const Message& m) {
  const bool pull = m.type == MessageType::kPullResponse;
  if (pull) {
    if (Status s = CheckValueCount(m); !s.ok()) return s;
    if (m.slots.size() != m.keys.size()) return Status::Error(From(m) + ": slots do not match keys");
  }
  Wakeups wake;
  {
    LockGuard<Mutex> g(*mu_);
    auto it = ops_.find(m.op_id);
    if (it == ops_.end()) {
      return Status::Error(From(m) + ": unknown operation " + std::to_string(m.op_id));
    }
    PendingOp& op = it->second;
    const uint64_t keys = pull ? m.keys.size() : m.aux;
    const MessageType want = op.kind == MessageType::kPullRequest ? MessageType::kPullResponse
                             : op.kind == MessageType::kPushRequest ? MessageType::kPushAck
                                                                    : MessageType::kSetAck;
    if (m.type != want || keys > op.remaining_keys) {
      return Status::Error(From(m) + ": does not match operation " + std::to_string(m.op_id));
    }
    if (pull) {
      // Validate every slot before writing any value.
      for (size_t i = 0; i < m.keys.size(); ++i) {
        if (static_cast<uint64_t>(m.slots[i]) + layout().Length(m.keys[i]) > op.out_len) {
          return Status::Error(From(m) + ": slot " + std::to_string(m.slots[i]) +
                               " outside the output buffer");
        }
      }
      const float* at = m.values.data();
      for (size_t i = 0; i < m.keys.size(); ++i) {
        const uint32_t len = layout().Length(m.keys[i]);
        std::memcpy(op.out + m.slots[i], at, len * sizeof(float));
        at += len;
      }
    }
    CompleteKeys(m.op_id, keys, &wake);
  }
  wake.Fire();
  return Status::Ok();
}

void Node::ArriveAtBarrier(WorkerId /*w*/, uint64_t* generation_out) {
  std::vector<std::pair<NodeId, Message>> out;
  Wakeups wake;
  {
    LockGuard<Mutex> g(*mu_);
    const uint64_t gen = barrier_generation_;
    *generation_out = gen;
    if (++barrier_arrived_ == workers_.size()) {
      barrier_arrived_ = 0;
      ++barrier_generation_;
      if (self_ == 0) {
        if (++coordinator_arrivals_[gen] == num_nodes_) ReleaseBarrier(gen, &out, &wake);
      } else {
        Message m;
        m.type = MessageType::kBarrierArrive;
        m.src = m.origin = self_;
        m.aux = static_cast<uint32_t>(gen);
        out.emplace_back(0, std::move(m));
      }
    }
  }
  for (auto& [to, m] : out) SendMessage(to, m);
  wake.Fire();
}

void Node::ReleaseBarrier(uint64_t generation, std::vector<std::pair<NodeId, Message>>* out,
                          Wakeups* wake) {
  coordinator_arrivals_.erase(generation);
  for (NodeId n = 0; n < num_nodes_; ++n) {
    if (n == self_) continue;
    Message m;
    m.type = MessageType::kBarrierRelease;
    m.src = m.origin = self_;
    m.aux = static_cast<uint32_t>(generation);
    out->emplace_back(n, std::move(m));
  }
  barrier_released_ = generation + 1;
  for (WorkerId w = 0; w < workers_.size(); ++w)
    if (waiting_[w]) wake->parkers.push_back(workers_[w]->parker_.get());
}

bool Node::BarrierReleased(uint64_t generation) {
  LockGuard<Mutex> g(*mu_);
  return barrier_released_ > generation;
}

Status Node::HandleBarrier(const Message& m) {
  std::vector<std::pair<NodeId, Message>> out;
  Wakeups wake;
  {
    LockGuard<Mutex> g(*mu_);
    if (m.type == MessageType::kBarrierArrive) {
      if (self_ != 0) return Status::Error(From(m) + ": only node 0 coordinates barriers");
      if (m.aux < barrier_released_) return Status::Error(From(m) + ": generation already released");
      if (++coordinator_arrivals_[m.aux] == num_nodes_) ReleaseBarrier(m.aux, &out, &wake);
    } else {
      if (m.src != 0) return Status::Error(From(m) + ": only node 0 releases barriers");
      barrier_released_ = std::max<uint64_t>(barrier_released_, uint64_t{m.aux} + 1);
      for (WorkerId w = 0; w < workers_.size(); ++w)
        if (waiting_[w]) wake.parkers.push_back(workers_[w]->parker_.get());
    }
  }
  for (auto& [to, msg] : out) SendMessage(to, msg);
  wake.Fire();
  return Status::Ok();
}

}  // namespace augur

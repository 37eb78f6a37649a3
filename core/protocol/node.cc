#include "core/protocol/node.h"

#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/policy/classic_policy.h"
#include "core/protocol/home.h"

namespace augur {

namespace {
constexpr size_t kLeadBuckets = 1024;

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
      policy_(options.policy ? options.policy : std::make_shared<ClassicPolicy>()),
      sync_period_seconds_(options.sync_period_seconds),
      sync_significance_sq_(
          static_cast<float>(options.sync_significance * options.sync_significance)),
      sync_max_deferred_(options.sync_max_deferred),
      sync_round_keys_(options.sync_round_keys),
      delta_bound_(options.optimizer.kind == OptimizerKind::kSgd ? options.replica_delta_bound
                                                                 : ReplicaDeltaBoundOptions{}),
      location_cache_capacity_(options.location_cache_capacity),
      mu_(runtime.NewMutex()),
      outstanding_(options.workers, 0),
      waiting_(options.workers, 0),
      clocks_(options.workers, 0),
      intents_(options.workers),
      timing_(options.workers, options.act_immediately),
      lead_histogram_(kLeadBuckets, 0) {
  AUGUR_CHECK(options.workers > 0, "a node needs at least one worker");
  AUGUR_CHECK(num_nodes_ > 0 && self_ < num_nodes_, "node %u of %u", self_, num_nodes_);
  AUGUR_CHECK(sync_period_seconds_ > 0, "sync period must be positive");
  AUGUR_CHECK(options.sync_significance >= 0, "sync significance must not be negative");
  sync_seq_ = options.first_sync_version & kSyncVersionMask;
  for (WorkerId w = 0; w < options.workers; ++w)
    workers_.push_back(std::make_unique<Worker>(*this, w, runtime.NewParker(), options.sampling,
                                                DeriveSeed(options.seed, self_ + 1, w)));
}

NodeId Node::HomeOf(Key key) const { return HomeNode(key, num_nodes_); }

MetricsSnapshot Node::Metrics() {
  MetricsSnapshot s;
  auto get = [](const std::atomic<uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  s.messages_sent = get(counters_.messages_sent);
  s.bytes_sent = get(counters_.bytes_sent);
  s.messages_received = get(counters_.messages_received);
  s.bytes_received = get(counters_.bytes_received);
  s.intents = get(counters_.intents);
  s.intent_keys = get(counters_.intent_keys);
  s.relocations = get(counters_.relocations);
  s.replicas_created = get(counters_.replicas_created);
  s.replicas_dropped = get(counters_.replicas_dropped);
  s.replica_syncs = get(counters_.replica_syncs);
  s.replica_polls = get(counters_.replica_polls);
  s.replica_deferrals = get(counters_.replica_deferrals);
  s.replica_clips = get(counters_.replica_clips);
  s.sync_rounds = get(counters_.sync_rounds);
  s.replica_refreshes = get(counters_.replica_refreshes);
  s.forwards = get(counters_.forwards);
  s.localize_requests = get(counters_.localize_requests);
  s.late_accesses = get(counters_.late_accesses);
  s.unannounced_accesses = get(counters_.unannounced_accesses);
  for (const auto& w : workers_) {
    s.local_accesses += w->local_accesses();
    s.remote_accesses += w->remote_accesses();
    s.wait_seconds += w->wait_seconds();
    s.barrier_seconds += w->barrier_seconds();
  }
  LockGuard<Mutex> g(*mu_);
  uint64_t n = 0;
  for (size_t b = 0; b < lead_histogram_.size(); ++b) {
    n += lead_histogram_[b];
    s.lead_clocks_sum += static_cast<double>(b) * lead_histogram_[b];
  }
  s.lead_count = n;
  uint64_t seen = 0;
  for (size_t b = 0; b < lead_histogram_.size() && n > 0; ++b) {
    seen += lead_histogram_[b];
    if (seen * 100 >= n * 99) {
      s.lead_clocks_p99 = static_cast<double>(b);
      break;
    }
  }
  return s;
}

void Node::RecordLead(Clock lead) {
  const size_t b = lead < 0 ? 0 : std::min<size_t>(static_cast<size_t>(lead), kLeadBuckets - 1);
  ++lead_histogram_[b];
}

size_t Node::PendingOperations() {
  LockGuard<Mutex> g(*mu_);
  return ops_.size();
}

size_t Node::DirectoryEntries() {
  LockGuard<Mutex> g(*mu_);
  return directory_.size() + location_cache_.size() + incoming_.size() + holders_.size() +
         replicas_.size();
}

void Node::SendMessage(NodeId to, const Message& m) {
  std::vector<uint8_t> frame = Encode(m);
  counters_.messages_sent.fetch_add(1, std::memory_order_relaxed);
  counters_.bytes_sent.fetch_add(frame.size(), std::memory_order_relaxed);
  runtime_.Send(to, std::move(frame));
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

void Node::EnsureTimer() {
  {
    LockGuard<Mutex> g(*mu_);
    if (timer_armed_) return;
    timer_armed_ = true;
  }
  runtime_.SetTimer(sync_period_seconds_, kSyncTimer);
}

uint64_t Node::BeginOp(WorkerId w, MessageType kind, uint64_t keys, float* out, size_t out_len) {
  const uint64_t id = next_op_id_++;
  ops_.emplace(id, PendingOp{w, kind, keys, out, out_len});
  if (w != kNoWorker) ++outstanding_[w];
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

void Node::CompleteKeys(uint64_t op_id, uint64_t keys, Effects* fx) {
  auto it = ops_.find(op_id);
  AUGUR_CHECK(it != ops_.end(), "op %llu vanished", static_cast<unsigned long long>(op_id));
  PendingOp& op = it->second;
  AUGUR_CHECK(keys <= op.remaining_keys, "op %llu completed twice",
              static_cast<unsigned long long>(op_id));
  op.remaining_keys -= keys;
  if (op.remaining_keys > 0) return;
  const WorkerId w = op.worker;
  ops_.erase(it);
  if (w == kNoWorker) return;
  --outstanding_[w];
  if (waiting_[w]) fx->wake.parkers.push_back(workers_[w]->parker_.get());
}

void Node::OnTimer(uint64_t timer_id) {
  if (timer_id != kSyncTimer) return;
  Effects fx;
  {
    EngineLock g(*this, fx);
    for (WorkerId w = 0; w < workers_.size(); ++w) {
      timing_.OnSyncRound(w, clocks_[w]);
      ActOnIntents(w, &fx);  // the window may have grown
    }
    // Flow control: a round starts only once the previous one was answered,
    // so a sync period shorter than the network needs cannot pile up deltas
    // in the send queues; rounds then run as fast as the round trip allows.
    if (!replicas_.empty() && ops_.count(timer_round_op_) == 0) {
      const size_t held = replicas_.size();
      counters_.sync_rounds.fetch_add(1, std::memory_order_relaxed);
      timer_round_op_ = BeginOp(kNoWorker, MessageType::kSyncRequest, held, nullptr, 0);
      const size_t sent = SyncRound(timer_round_op_, /*timer=*/true, &fx);
      CompleteKeys(timer_round_op_, held - sent, &fx);  // the deferred ones expect no answer
    }
  }
  Flush(fx);
  runtime_.SetTimer(sync_period_seconds_, kSyncTimer);
}

Status Node::OnMessage(NodeId from, std::span<const uint8_t> frame) {
  Result<FrameView> decoded = DecodeView(frame);
  if (!decoded.ok()) return decoded.status().WithContext("frame from node " + std::to_string(from));
  Message& m = decoded->message;
  // A pull response's values go straight from the frame to the worker's
  // buffer; every other message gets its own copy.
  const std::span<const uint8_t> value_bytes = decoded->value_bytes;
  if (m.type != MessageType::kPullResponse) {
    m.values.resize(decoded->value_count());
    if (!m.values.empty()) std::memcpy(m.values.data(), value_bytes.data(), value_bytes.size());
  }
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
    case MessageType::kLocalizeRequest:
    case MessageType::kSyncRequest:
      return HandleRequest(m);
    case MessageType::kPullResponse:
    case MessageType::kPushAck:
    case MessageType::kSetAck:
      return HandleResponse(
          m, m.type == MessageType::kPullResponse ? value_bytes : std::span<const uint8_t>());
    case MessageType::kBarrierArrive:
    case MessageType::kBarrierRelease:
      return HandleBarrier(m);
    case MessageType::kHandover:
      return HandleHandover(m);
    case MessageType::kOwnerUpdate:
      return HandleOwnerUpdate(m);
    case MessageType::kReplicaGrant:
      return HandleReplicaGrant(m);
    case MessageType::kSyncResponse:
      return HandleSyncResponse(m);
  }
  return Status::Error(From(m) + ": unhandled type");
}

Status Node::CheckValueCount(const Message& m, bool rows, size_t value_count) const {
  uint64_t need = 0;
  for (Key k : m.keys) need += rows ? store_.RowLength(k) : layout().Length(k);
  if (need != value_count) {
    return Status::Error(From(m) + ": " + std::to_string(value_count) +
                         " values for keys needing " + std::to_string(need));
  }
  return Status::Ok();
}

Status Node::HandleResponse(const Message& m, std::span<const uint8_t> pull_values) {
  const bool pull = m.type == MessageType::kPullResponse;
  if (pull) {
    if (Status s = CheckValueCount(m, false, pull_values.size() / sizeof(float)); !s.ok()) return s;
    if (m.slots.size() != m.keys.size())
      return Status::Error(From(m) + ": slots do not match keys");
  }
  Effects fx;
  {
    EngineLock g(*this, fx);
    auto it = ops_.find(m.op_id);
    if (it == ops_.end()) {
      return Status::Error(From(m) + ": unknown operation " + std::to_string(m.op_id));
    }
    PendingOp& op = it->second;
    const uint64_t keys = pull ? m.keys.size() : m.aux;
    const MessageType want = op.kind == MessageType::kPullRequest   ? MessageType::kPullResponse
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
      const uint8_t* at = pull_values.data();
      for (size_t i = 0; i < m.keys.size(); ++i) {
        const uint32_t len = layout().Length(m.keys[i]);
        std::memcpy(op.out + m.slots[i], at, len * sizeof(float));
        at += len * sizeof(float);
        NoteLocation(m.keys[i], m.src);
      }
    }
    CompleteKeys(m.op_id, keys, &fx);
  }
  Flush(fx);
  return Status::Ok();
}

void Node::ArriveAtBarrier(WorkerId /*w*/, uint64_t* generation_out) {
  Effects fx;
  {
    EngineLock g(*this, fx);
    const uint64_t gen = barrier_generation_;
    *generation_out = gen;
    if (++barrier_arrived_ == workers_.size()) {
      barrier_arrived_ = 0;
      ++barrier_generation_;
      if (self_ == 0) {
        if (++coordinator_arrivals_[gen] == num_nodes_) ReleaseBarrier(gen, &fx);
      } else {
        fx.out.To(0, MessageType::kBarrierArrive, self_, self_, 0, static_cast<uint32_t>(gen));
      }
    }
  }
  Flush(fx);
}

void Node::ReleaseBarrier(uint64_t generation, Effects* fx) {
  coordinator_arrivals_.erase(generation);
  for (NodeId n = 0; n < num_nodes_; ++n) {
    if (n != self_)
      fx->out.To(n, MessageType::kBarrierRelease, self_, self_, 0,
                 static_cast<uint32_t>(generation));
  }
  barrier_released_ = generation + 1;
  for (WorkerId w = 0; w < workers_.size(); ++w)
    if (waiting_[w]) fx->wake.parkers.push_back(workers_[w]->parker_.get());
}

bool Node::BarrierReleased(uint64_t generation) {
  LockGuard<Mutex> g(*mu_);
  return barrier_released_ > generation;
}

Status Node::HandleBarrier(const Message& m) {
  Effects fx;
  {
    EngineLock g(*this, fx);
    if (m.type == MessageType::kBarrierArrive) {
      if (self_ != 0) return Status::Error(From(m) + ": only node 0 coordinates barriers");
      if (m.aux < barrier_released_)
        return Status::Error(From(m) + ": generation already released");
      if (++coordinator_arrivals_[m.aux] == num_nodes_) ReleaseBarrier(m.aux, &fx);
    } else {
      if (m.src != 0) return Status::Error(From(m) + ": only node 0 releases barriers");
      barrier_released_ = std::max<uint64_t>(barrier_released_, uint64_t{m.aux} + 1);
      for (WorkerId w = 0; w < workers_.size(); ++w)
        if (waiting_[w]) fx.wake.parkers.push_back(workers_[w]->parker_.get());
    }
  }
  Flush(fx);
  return Status::Ok();
}

}  // namespace augur

#include "core/protocol/node.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/policy/classic_policy.h"
#include "core/protocol/home.h"
#include "core/protocol/message_split.h"

namespace augur {

namespace {
constexpr size_t kLeadBuckets = 1024;
}  // namespace

std::string Node::From(const Message& m) {
  return std::string(MessageTypeName(m.type)) + " from node " + std::to_string(m.src);
}

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
      max_frame_bytes_(runtime.MaxFrameBytes()),
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
#define AUGUR_COPY_COUNTER(name, doc) s.name = get(counters_.name);
  AUGUR_NODE_COUNTERS(AUGUR_COPY_COUNTER)
#undef AUGUR_COPY_COUNTER
  for (const auto& w : workers_) {
#define AUGUR_ADD_WORKER(name, doc) s.name += w->name();
    AUGUR_WORKER_COUNTERS(AUGUR_ADD_WORKER)
    AUGUR_WORKER_SECONDS(AUGUR_ADD_WORKER)
#undef AUGUR_ADD_WORKER
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
  const double started = runtime_.Now();
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
  // Pacing: the next round is at least kSyncPacing times this handler's own
  // time away, so building rounds takes at most 1/kSyncPacing of the
  // protocol context's time (a round over many replicas costs more than a
  // short period; back to back, they starved the workers of a 2-core node).
  // Runtimes whose clock does not move inside a handler (simulated and
  // virtual time) see 0 and keep the period exactly.
  const double spent = runtime_.Now() - started;
  runtime_.SetTimer(std::max(sync_period_seconds_, kSyncPacing * spent), kSyncTimer);
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

Status Node::CheckDistinctKeys(const Message& m) const {
  std::vector<Key> keys = m.keys;
  std::sort(keys.begin(), keys.end());
  auto twice = std::adjacent_find(keys.begin(), keys.end());
  if (twice == keys.end()) return Status::Ok();
  return Status::Error(From(m) + ": key " + std::to_string(*twice) + " appears twice");
}

Status Node::CheckOperation(const Message& m, MessageType kind, uint64_t keys) const {
  auto it = ops_.find(m.op_id);
  if (it == ops_.end())
    return Status::Error(From(m) + ": unknown operation " + std::to_string(m.op_id));
  if (it->second.kind != kind || keys > it->second.remaining_keys)
    return Status::Error(From(m) + ": does not match operation " + std::to_string(m.op_id));
  return Status::Ok();
}

Status Node::HandleResponse(const Message& m, std::span<const uint8_t> pull_values) {
  const bool pull = m.type == MessageType::kPullResponse;
  if (pull) {
    if (Status s = CheckValueCount(m, false, pull_values.size() / sizeof(float)); !s.ok()) return s;
    if (m.slots.size() != m.keys.size())
      return Status::Error(From(m) + ": slots do not match keys");
  } else if (!m.keys.empty() || !m.slots.empty() || !pull_values.empty() || !m.values.empty()) {
    return Status::Error(From(m) + ": malformed (an acknowledgement carries a count only)");
  }
  const MessageType kind = pull                              ? MessageType::kPullRequest
                           : m.type == MessageType::kPushAck ? MessageType::kPushRequest
                                                             : MessageType::kSetRequest;
  const uint64_t keys = pull ? m.keys.size() : m.aux;
  Effects fx;
  Status status;
  {
    EngineLock g(*this, fx);
    status = CheckOperation(m, kind, keys);
    if (status.ok() && pull) {
      // Validate every slot before writing any value.
      const PendingOp& op = ops_.at(m.op_id);
      for (size_t i = 0; i < m.keys.size(); ++i) {
        if (static_cast<uint64_t>(m.slots[i]) + layout().Length(m.keys[i]) > op.out_len) {
          status = Status::Error(From(m) + ": slot " + std::to_string(m.slots[i]) +
                                 " outside the output buffer");
          break;
        }
      }
    }
    if (status.ok()) {
      if (pull) {
        const PendingOp& op = ops_.at(m.op_id);
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
  }
  Flush(fx);  // also after a refusal: no wake-up staged by another call is lost
  return status;
}

}  // namespace augur

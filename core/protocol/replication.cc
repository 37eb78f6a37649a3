#include "core/protocol/replication.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <string>

#include "core/base/check.h"
#include "core/protocol/intent_tracker.h"
#include "core/protocol/relocation.h"
#include "core/protocol/routing.h"
#include "core/protocol/row_digest.h"

namespace augur {

namespace {
// Serial-number comparison (RFC 1982) of 30-bit sync versions.
bool NewerVersion(uint32_t a, uint32_t b) {
  const uint32_t d = (a - b) & kSyncVersionMask;
  return d != 0 && d < (kSyncVersionMask + 1) / 2;
}

bool AllZero(const float* v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    if (v[i] != 0.0f) return false;
  return true;
}
// Squared norm of the summed updates a replica got since its last flush.
float ValueChangeSq(const ParamStore::Entry& e) {
  float sum = 0;
  for (uint32_t i = 0; i < e.length; ++i) sum += e.delta[i] * e.delta[i];
  return sum;
}

}  // namespace

Replication::Replication(EngineContext& cx, Relocation& relocation, Routing& routing,
                         IntentTracker& intents, const NodeOptions& options)
    : cx_(cx),
      relocation_(relocation),
      routing_(routing),
      intents_(intents),
      sync_significance_sq_(
          static_cast<float>(options.sync_significance * options.sync_significance)),
      sync_max_deferred_(options.sync_max_deferred),
      sync_round_keys_(options.sync_round_keys),
      delta_bound_(options.optimizer.kind == OptimizerKind::kSgd ? options.replica_delta_bound
                                                                 : ReplicaDeltaBoundOptions{}),
      sync_seq_(options.first_sync_version & kSyncVersionMask) {}

float Replication::RoundThreshold() {
  if (sync_round_keys_ == 0 || replicas_.size() <= sync_round_keys_) return -1;
  round_changes_.clear();
  for (const auto& [k, r] : replicas_)
    cx_.store.With(k, false,
                   [&](ParamStore::Entry& e) { round_changes_.push_back(ValueChangeSq(e)); });
  const auto nth = round_changes_.begin() + sync_round_keys_;
  std::nth_element(round_changes_.begin(), nth, round_changes_.end(), std::greater<float>());
  return *nth;
}

bool Replication::DeferFlush(const ParamStore::Entry& e, float threshold) const {
  const float change = ValueChangeSq(e);
  if (change <= threshold) return true;  // not among the round's busiest
  if (sync_significance_sq_ <= 0) return false;
  float value = 0;
  for (uint32_t i = 0; i < e.length; ++i) value += e.value[i] * e.value[i];
  return change <= sync_significance_sq_ * value;
}

void Replication::BoundDelta(float* delta, uint32_t len) {
  if (delta_bound_.enabled() && delta_bound_.Bound(delta, len))
    cx_.counters.Add(NodeCounter::kReplicaClips);
}

size_t Replication::SyncRound(uint64_t op_id, bool timer, Effects* fx) {
  size_t n = 0;
  const float threshold = timer ? RoundThreshold() : -1;
  // Without a budget or a filter nothing is deferred: no extra lock per replica.
  const bool may_defer = timer && (threshold >= 0 || sync_significance_sq_ > 0);
  for (auto it = replicas_.begin(); it != replicas_.end();) {
    const Key k = it->first;
    HeldReplica& r = it->second;
    const uint32_t len = cx_.store.DeltaLength(k);
    const bool drop = !r.is_static && intents_.ActiveCount(k) == 0;
    if (may_defer && !drop && r.deferred < sync_max_deferred_) {
      bool defer = false;
      cx_.store.With(k, false, [&](ParamStore::Entry& e) { defer = DeferFlush(e, threshold); });
      if (defer) {
        ++r.deferred;
        cx_.counters.Add(NodeCounter::kReplicaDeferrals);
        ++it;
        continue;
      }
    }
    r.deferred = 0;
    // One node-wide sequence (not per replica lifetime): a flush that races a
    // re-grant of the same key still carries a newer version than any before.
    sync_seq_ = (sync_seq_ + 1) & kSyncVersionMask;
    Message& m = fx->out.To(r.owner, MessageType::kSyncRequest, cx_.self, cx_.self, op_id);
    m.keys.push_back(k);
    const size_t at = m.values.size();
    m.values.resize(at + len);
    // Snapshot (and, on drop, removal) under one stripe lock: a concurrent
    // worker push lands either in this delta or in the next one, never lost.
    if (drop) {
      cx_.store.TakeReplica(k, m.values.data() + at);
    } else {
      cx_.store.With(k, false, [&](ParamStore::Entry& e) {
        std::memcpy(m.values.data() + at, e.delta, len * sizeof(float));
        std::memset(e.delta, 0, len * sizeof(float));
      });
    }
    BoundDelta(m.values.data() + at, len);
    const bool delta = !AllZero(m.values.data() + at, len);
    if (!drop) {
      if (delta && cx_.ops.Pending(r.last_flush_op))
        r.unanswered.emplace_back(
            op_id, std::vector<float>(m.values.data() + at, m.values.data() + at + len));
      r.last_flush_op = op_id;
    }
    if (!delta) m.values.resize(at);  // a poll: the key alone
    m.slots.push_back(sync_seq_ | (drop ? kDropBit : 0) | (delta ? 0 : kNoDeltaBit));
    if (delta) {
      cx_.counters.Add(NodeCounter::kReplicaSyncs);
    } else {
      cx_.counters.Add(NodeCounter::kReplicaPolls);
    }
    ++n;
    if (drop) {
      cx_.counters.Add(NodeCounter::kReplicasDropped);
      it = replicas_.erase(it);
    } else {
      ++it;
    }
  }
  return n;
}

uint64_t Replication::StartWaitSync(WorkerId w) {
  Effects fx = Effects::ForWorker();
  uint64_t op = 0;
  {
    EngineLock g(cx_, fx);
    if (!replicas_.empty()) {
      op = BeginRound(w);
      SyncRound(op, /*timer=*/false, &fx);
    }
  }
  cx_.Flush(fx);
  return op;
}

uint64_t Replication::BeginRound(WorkerId w) {
  std::array<Key, OperationTable::kFirstKeys> first{};
  size_t n = 0;
  for (auto it = replicas_.begin(); it != replicas_.end() && n < first.size(); ++it)
    first[n++] = it->first;
  return cx_.ops.Begin(w, MessageType::kSyncRequest, replicas_.size(), nullptr, 0,
                       std::span<const Key>(first.data(), n));
}

void Replication::NoteRoundTrip() {
  const double seconds = std::max(0.0, cx_.runtime.Now() - timer_round_started_);
  cx_.counters.Add(NodeCounter::kSyncRoundTrips);
  cx_.counters.Add(NodeCounter::kSyncRoundTripMicros, static_cast<uint64_t>(seconds * 1e6 + 0.5));
}

void Replication::TimerRound(double now, Effects* fx) {
  // Flow control: a round starts only once the previous one was answered,
  // so a sync period shorter than the network needs cannot pile up deltas
  // in the send queues; rounds then run as fast as the round trip allows.
  if (replicas_.empty() || cx_.ops.Pending(timer_round_op_)) return;
  const size_t held = replicas_.size();
  cx_.counters.Add(NodeCounter::kSyncRounds);
  timer_round_op_ = BeginRound(OperationTable::kNoWorker);
  const size_t sent = SyncRound(timer_round_op_, /*timer=*/true, fx);
  timer_round_started_ = now;
  cx_.ops.Complete(timer_round_op_, held - sent, fx);  // the deferred ones expect no answer
}

uint32_t Replication::OtherHolders(Key key, NodeId requester, bool* known) const {
  uint32_t others = 0;
  *known = false;
  auto hs = holders_.find(key);
  if (hs == holders_.end()) return 0;
  for (const Holder& h : hs->second) {
    if (h.node == requester) {
      *known = true;
    } else {
      ++others;
    }
  }
  return others;
}

void Replication::Grant(Key key, NodeId requester, bool known, Effects* fx) {
  std::vector<Holder>& list = holders_[key];
  if (!known) list.push_back(Holder{.node = requester});
  Message& m = fx->out.To(requester, MessageType::kReplicaGrant, cx_.self, cx_.self, 0);
  m.keys.push_back(key);
  const size_t at = m.values.size();
  const uint32_t row_len = cx_.store.RowLength(key);
  m.values.resize(at + row_len);
  cx_.store.ReadRow(key, m.values.data() + at);
  // The holder's replica now starts from this row: sync rounds compare with it.
  const uint64_t digest = RowDigest(m.values.data() + at, row_len);
  for (Holder& h : list)
    if (h.node == requester) h.sent = digest;
}

void Replication::ApplySync(Key key, KeyRequest& item, Effects* fx) {
  const NodeId holder = item.origin;
  const uint32_t version = item.slot & kSyncVersionMask;
  const bool drop = (item.slot & kDropBit) != 0;
  const bool delta = SyncCarriesDelta(item.slot);
  if (holder == cx_.self) {
    // Our own flush, sent while we held a replica, reached us after that
    // replica was upgraded to the main copy: its delta still applies once.
    if (delta) cx_.store.ApplyDeltaTo(key, item.values.data());
    if (item.op_id != 0 && cx_.ops.Pending(item.op_id)) cx_.ops.Complete(item.op_id, 1, fx);
    return;
  }
  std::vector<Holder>& hs = holders_[key];
  Holder* h = nullptr;
  for (Holder& x : hs)
    if (x.node == holder) h = &x;
  if (h == nullptr) {  // e.g. a holder the owner already forgot: its delta still counts
    hs.push_back(Holder{.node = holder});
    h = &hs.back();
  }
  if (delta && (!h->version || NewerVersion(version, *h->version))) {
    cx_.store.ApplyDeltaTo(key, item.values.data());
    h->version = version;
  }
  if (drop) {
    std::erase_if(hs, [&](const Holder& x) { return x.node == holder; });
    if (hs.empty()) holders_.erase(key);
    ++fx->out.Ack(holder, MessageType::kSyncResponse, cx_.self, item.op_id).aux;
    return;
  }
  const KeyView view{key, intents_.ActiveCount(key) > 0, static_cast<uint32_t>(hs.size() - 1)};
  if (!cx_.policy.IsStaticReplica(key) && cx_.policy.Upgrade(view)) {
    holders_.erase(key);
    relocation_.HandOver(key, holder, item.op_id, fx);
    return;
  }
  Message& m = fx->out.Ack(holder, MessageType::kSyncResponse, cx_.self, item.op_id);
  const uint32_t row_len = cx_.store.RowLength(key);
  const size_t at = m.values.size();
  m.values.resize(at + row_len);
  cx_.store.ReadRow(key, m.values.data() + at);
  const uint64_t digest = RowDigest(m.values.data() + at, row_len);
  if (digest == h->sent) {  // the holder's replica already starts from this row
    m.values.resize(at);
    ++m.aux;
    return;
  }
  h->sent = digest;
  m.keys.push_back(key);
  cx_.counters.Add(NodeCounter::kReplicaRefreshes);
}

Status Replication::HandleSyncResponse(const Message& m) {
  if (Status s = cx_.CheckValueCount(m, true); !s.ok()) return s;
  if (!m.slots.empty())
    return Status::Error("sync-response from node " + std::to_string(m.src) +
                         ": malformed (slots)");
  Effects fx;
  Status status;
  {
    EngineLock g(cx_, fx);
    // The operation is checked before any row applies.
    if (m.op_id != 0) {
      const OperationTable::PendingOp* op = cx_.ops.Find(m.op_id);
      if (op == nullptr || op->kind != MessageType::kSyncRequest ||
          op->remaining_keys < m.keys.size() + m.aux) {
        status = Status::Error("sync-response from node " + std::to_string(m.src) +
                               ": does not match operation " + std::to_string(m.op_id));
      }
    }
    const float* row = m.values.data();
    for (size_t i = 0; status.ok() && i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      const uint32_t row_len = cx_.store.RowLength(k);
      if (auto held = replicas_.find(k); held != replicas_.end()) {
        // This answer covers every flush up to its round (one ordered channel).
        auto& later = held->second.unanswered;
        if (m.op_id != 0) std::erase_if(later, [&](const auto& f) { return f.first <= m.op_id; });
        cx_.store.With(k, false, [&](ParamStore::Entry& e) {
          // Fresh main row, then the deltas it does not hold yet, each applied
          // as the main copy will apply it when it arrives: later flushes
          // still unanswered, then what was pushed here since the last
          // flush. Without the replay a replica would forget its own
          // workers' latest pushes for a round, and they would push the
          // same gradient again: hot keys overshoot, word2vec diverged.
          std::memcpy(e.value, row, e.length * sizeof(float));
          if (e.state != nullptr)
            std::memcpy(e.state, row + e.length, (row_len - e.length) * sizeof(float));
          for (const auto& f : later) cx_.store.ApplyDelta(e, f.second.data());
          cx_.store.ApplyDelta(e, e.delta);  // zeros: no-op
        });
      }
      row += row_len;
    }
    if (status.ok() && m.op_id != 0) {
      cx_.ops.Complete(m.op_id, m.keys.size() + m.aux, &fx);
      if (m.op_id == timer_round_op_ && !cx_.ops.Pending(m.op_id)) NoteRoundTrip();
    }
  }
  cx_.Flush(fx);  // also after a refusal: no wake-up staged by another call is lost
  return status;
}

Status Replication::HandleReplicaGrant(const Message& m) {
  const std::string from = "replica-grant from node " + std::to_string(m.src);
  if (Status s = cx_.CheckValueCount(m, true); !s.ok()) return s;
  if (!m.slots.empty()) return Status::Error(from + ": malformed (slots)");
  Effects fx;
  Status status;
  {
    EngineLock g(cx_, fx);
    // Checked whole, under the lock, before any key applies.
    for (Key k : m.keys) {
      if (cx_.HasMain(k)) {
        status = Status::Error(from + ": key " + std::to_string(k) + " has its main copy here");
        break;
      }
      const Relocation::Owner* owner = relocation_.DirectoryEntry(k);
      if (owner != nullptr && owner->node == cx_.self) {
        // The directory here awaits this key's hand-over home, not a replica.
        status = Status::Error(from + ": key " + std::to_string(k) +
                               " is on its way home here (a hand-over is due)");
        break;
      }
    }
    const float* row = m.values.data();
    for (size_t i = 0; status.ok() && i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      if (replicas_.count(k) == 0) {
        cx_.store.Install(k, CopyKind::kReplica, row);
        replicas_[k] = HeldReplica{.owner = m.src, .is_static = cx_.policy.IsStaticReplica(k)};
        cx_.counters.Add(NodeCounter::kReplicasCreated);
      }
      row += cx_.store.RowLength(k);
      routing_.NoteLocation(k, m.src);
      relocation_.DrainQueue(k, &fx);
    }
  }
  cx_.Flush(fx);
  return status;
}

}  // namespace augur

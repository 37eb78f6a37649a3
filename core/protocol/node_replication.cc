// Node: replica synchronisation (REFERENCE §2.4, §2.6, §3).
//
// Every sync period a holder ships each replica's delta (updates since the
// last flush) to the main copy with a version; the owner applies a delta only
// if its version is newer than the last one applied from that holder (so it
// applies exactly once), then answers with the fresh row — or, when the
// Policy says the holder is the only node still interested, hands it the
// main copy (upgrade). A replica without local intent is flushed and dropped.
// WaitSync() runs one such round for the calling worker and waits for it.
//
// Idle replicas cost (almost) nothing: a zero delta is sent as a poll (the
// key alone, kNoDeltaBit), and the owner sends a row back only when it differs
// from the row that holder last got (RowDigest per holder); otherwise it just
// acknowledges the key. So a round's bytes follow what changed, not how many
// replicas exist. Two opt-in rules let timer rounds skip replicas (at most
// sync_max_deferred rounds in a row; drops and WaitSync always flush): the
// significance filter and the round budget (NodeOptions; core/README.md).
// Every flushed delta first passes BoundDelta (replica_delta_bound.h).
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

#include "core/base/check.h"
#include "core/protocol/node.h"
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
}  // namespace

float Node::RoundThreshold() {
  if (sync_round_keys_ == 0 || replicas_.size() <= sync_round_keys_) return -1;
  round_changes_.clear();
  for (const auto& [k, r] : replicas_)
    store_.With(k, false, [&](ParamStore::Entry& e) {
      round_changes_.push_back(UpdateNormSq(store_.optimizer(), e.state, e.delta, e.length));
    });
  const auto nth = round_changes_.begin() + sync_round_keys_;
  std::nth_element(round_changes_.begin(), nth, round_changes_.end(), std::greater<float>());
  return *nth;
}

bool Node::DeferFlush(const ParamStore::Entry& e, float threshold) const {
  const float change = UpdateNormSq(store_.optimizer(), e.state, e.delta, e.length);
  if (change <= threshold) return true;  // not among the round's busiest
  if (sync_significance_sq_ <= 0) return false;
  float value = 0;
  for (uint32_t i = 0; i < e.length; ++i) value += e.value[i] * e.value[i];
  return change <= sync_significance_sq_ * value;
}

void Node::BoundDelta(float* delta, uint32_t len) {
  if (delta_bound_.enabled() && delta_bound_.Bound(delta, len))
    counters_.replica_clips.fetch_add(1, std::memory_order_relaxed);
}

size_t Node::SyncRound(uint64_t op_id, bool timer, Effects* fx) {
  size_t n = 0;
  const float threshold = timer ? RoundThreshold() : -1;
  // Without a budget or a filter nothing is deferred: no extra lock per replica.
  const bool may_defer = timer && (threshold >= 0 || sync_significance_sq_ > 0);
  for (auto it = replicas_.begin(); it != replicas_.end();) {
    const Key k = it->first;
    HeldReplica& r = it->second;
    const uint32_t len = layout().Length(k);
    const bool drop = !r.is_static && intents_.ActiveCount(k) == 0;
    if (may_defer && !drop && r.deferred < sync_max_deferred_) {
      bool defer = false;
      store_.With(k, false, [&](ParamStore::Entry& e) { defer = DeferFlush(e, threshold); });
      if (defer) {
        ++r.deferred;
        counters_.replica_deferrals.fetch_add(1, std::memory_order_relaxed);
        ++it;
        continue;
      }
    }
    r.deferred = 0;
    // One node-wide sequence (not per replica lifetime): a flush that races a
    // re-grant of the same key still carries a newer version than any before.
    sync_seq_ = (sync_seq_ + 1) & kSyncVersionMask;
    Message& m = fx->out.To(r.owner, MessageType::kSyncRequest, self_, self_, op_id);
    m.keys.push_back(k);
    const size_t at = m.values.size();
    m.values.resize(at + len);
    // Snapshot (and, on drop, removal) under one stripe lock: a concurrent
    // worker push lands either in this delta or in the next one, never lost.
    if (drop) {
      store_.TakeReplica(k, m.values.data() + at);
    } else {
      store_.With(k, false, [&](ParamStore::Entry& e) {
        std::memcpy(m.values.data() + at, e.delta, len * sizeof(float));
        std::memset(e.delta, 0, len * sizeof(float));
      });
    }
    BoundDelta(m.values.data() + at, len);
    const bool delta = !AllZero(m.values.data() + at, len);
    if (!drop) {
      if (delta && ops_.count(r.last_flush_op) > 0)
        r.unanswered.emplace_back(
            op_id, std::vector<float>(m.values.data() + at, m.values.data() + at + len));
      r.last_flush_op = op_id;
    }
    if (!delta) m.values.resize(at);  // a poll: the key alone
    m.slots.push_back(sync_seq_ | (drop ? kDropBit : 0) | (delta ? 0 : kNoDeltaBit));
    if (delta) {
      counters_.replica_syncs.fetch_add(1, std::memory_order_relaxed);
    } else {
      counters_.replica_polls.fetch_add(1, std::memory_order_relaxed);
    }
    ++n;
    if (drop) {
      counters_.replicas_dropped.fetch_add(1, std::memory_order_relaxed);
      it = replicas_.erase(it);
    } else {
      ++it;
    }
  }
  return n;
}

uint64_t Node::StartWaitSync(WorkerId w, Effects* fx) {
  EngineLock g(*this, *fx);
  if (replicas_.empty()) return 0;
  const uint64_t op = BeginOp(w, MessageType::kSyncRequest, replicas_.size(), nullptr, 0);
  SyncRound(op, /*timer=*/false, fx);
  return op;
}

void Node::ApplySync(Key key, Item& item, Effects* fx) {
  const NodeId holder = item.origin;
  const uint32_t version = item.slot & kSyncVersionMask;
  const bool drop = (item.slot & kDropBit) != 0;
  const bool delta = SyncCarriesDelta(item.slot);
  if (holder == self_) {
    // Our own flush, sent while we held a replica, reached us after that
    // replica was upgraded to the main copy: its delta still applies once.
    if (delta) store_.Push(key, item.values.data(), false);
    if (item.op_id != 0 && ops_.count(item.op_id)) CompleteKeys(item.op_id, 1, fx);
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
    store_.Push(key, item.values.data(), false);
    h->version = version;
  }
  if (drop) {
    std::erase_if(hs, [&](const Holder& x) { return x.node == holder; });
    if (hs.empty()) holders_.erase(key);
    ++fx->out.Ack(holder, MessageType::kSyncResponse, self_, item.op_id).aux;
    return;
  }
  const KeyView view{key, intents_.ActiveCount(key) > 0, static_cast<uint32_t>(hs.size() - 1)};
  if (!policy_->IsStaticReplica(key) && policy_->Upgrade(view)) {
    holders_.erase(key);
    HandOver(key, holder, item.op_id, fx);
    return;
  }
  Message& m = fx->out.Ack(holder, MessageType::kSyncResponse, self_, item.op_id);
  const uint32_t row_len = store_.RowLength(key);
  const size_t at = m.values.size();
  m.values.resize(at + row_len);
  store_.ReadRow(key, m.values.data() + at);
  const uint64_t digest = RowDigest(m.values.data() + at, row_len);
  if (digest == h->sent) {  // the holder's replica already starts from this row
    m.values.resize(at);
    ++m.aux;
    return;
  }
  h->sent = digest;
  m.keys.push_back(key);
  counters_.replica_refreshes.fetch_add(1, std::memory_order_relaxed);
}

Status Node::HandleSyncResponse(const Message& m) {
  if (Status s = CheckValueCount(m, true); !s.ok()) return s;
  if (!m.slots.empty())
    return Status::Error("sync-response from node " + std::to_string(m.src) +
                         ": malformed (slots)");
  Effects fx;
  Status status;
  {
    EngineLock g(*this, fx);
    // The operation is checked before any row applies.
    if (m.op_id != 0) {
      auto it = ops_.find(m.op_id);
      if (it == ops_.end() || it->second.kind != MessageType::kSyncRequest ||
          it->second.remaining_keys < m.keys.size() + m.aux) {
        status = Status::Error("sync-response from node " + std::to_string(m.src) +
                               ": does not match operation " + std::to_string(m.op_id));
      }
    }
    const float* row = m.values.data();
    const OptimizerConfig& optimizer = store_.optimizer();
    for (size_t i = 0; status.ok() && i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      const uint32_t row_len = store_.RowLength(k);
      if (auto held = replicas_.find(k); held != replicas_.end()) {
        // This answer covers every flush up to its round (one ordered channel).
        auto& later = held->second.unanswered;
        if (m.op_id != 0) std::erase_if(later, [&](const auto& f) { return f.first <= m.op_id; });
        store_.With(k, false, [&](ParamStore::Entry& e) {
          // Fresh main row, then the deltas it does not hold yet, each replayed
          // as the update the main copy will apply when it arrives (exact for
          // sum and sgd): later flushes still unanswered, then what was pushed
          // here since the last flush. Without the replay a replica would
          // forget its own workers' latest pushes for a round, and they would
          // push the same gradient again: hot keys overshoot, word2vec diverged.
          std::memcpy(e.value, row, e.length * sizeof(float));
          if (e.state != nullptr)
            std::memcpy(e.state, row + e.length, (row_len - e.length) * sizeof(float));
          for (const auto& f : later)
            ApplyUpdate(optimizer, e.value, e.state, f.second.data(), e.length);
          ApplyUpdate(optimizer, e.value, e.state, e.delta, e.length);  // zeros: no-op
        });
      }
      row += row_len;
    }
    if (status.ok() && m.op_id != 0) CompleteKeys(m.op_id, m.keys.size() + m.aux, &fx);
  }
  Flush(fx);  // also after a refusal: no wake-up staged by another call is lost
  return status;
}

}  // namespace augur

// Node: where each key of an operation or request goes (REFERENCE §2.1, §2.3).
//
// A key is applied where its main copy is; a node that lacks it queues the
// request if the key is on its way here, and otherwise forwards it: the home
// node knows the owner (directory), every other node sends to its location
// cache entry or to the home.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/protocol/node.h"

namespace augur {

namespace {
bool CarriesValues(MessageType t) {
  return t == MessageType::kPushRequest || t == MessageType::kSetRequest ||
         t == MessageType::kSyncRequest;
}
}  // namespace

bool Node::HasMain(Key key) {
  bool main = false;
  store_.With(key, false, [&](ParamStore::Entry& e) { main = e.kind == CopyKind::kMain; });
  return main;
}

void Node::NoteLocation(Key key, NodeId node) {
  if (node == self_ || node == HomeOf(key)) {
    location_cache_.erase(key);
    return;
  }
  if (location_cache_.size() >= location_cache_capacity_) location_cache_.clear();
  location_cache_[key] = node;
}

NodeId Node::RemoteDestination(Key key) const {
  auto it = location_cache_.find(key);
  return it != location_cache_.end() ? it->second : HomeOf(key);
}

Ticket Node::SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                      std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                      const float* in, std::span<float> out) {
  Effects fx;
  uint64_t op = 0;
  {
    EngineLock g(*this, fx);
    op = BeginOp(w, type, missing.size(), out.data(), out.size());
    for (uint32_t idx : missing) {
      const Key k = keys[idx];
      const uint32_t len = layout().Length(k);
      Item item{type, self_, op, 0, {}};
      if (type == MessageType::kPullRequest) item.slot = offsets[idx];
      if (in != nullptr) item.values.assign(in + offsets[idx], in + offsets[idx] + len);
      if (policy_->LocalizesOnIntent()) {
        const IntentTable::Counts intent = intents_.Active(k);
        if (intent.ahead > 0) {
          counters_.late_accesses.fetch_add(1, std::memory_order_relaxed);
        } else if (intent.count > 0) {
          counters_.unannounced_accesses.fetch_add(1, std::memory_order_relaxed);
        }
      }
      if (type == MessageType::kSetRequest) {
        // A Set on a replica: the replica takes the value now (its delta is
        // superseded) and the Set travels to the main copy (REFERENCE §3).
        store_.With(k, false, [&](ParamStore::Entry& e) {
          if (e.kind != CopyKind::kReplica) return;
          std::memcpy(e.value, item.values.data(), len * sizeof(float));
          std::memset(e.delta, 0, len * sizeof(float));
        });
      } else if (policy_->IsStaticReplica(k) && HomeOf(k) != self_ && !incoming_.count(k) &&
                 !store_.Contains(k)) {
        RequestLocalize(k, &fx);  // static replica: fetched on first touch
      }
      Dispatch(k, std::move(item), /*via_home=*/false, &fx);
    }
    if (ops_.find(op) == ops_.end()) op = 0;  // every key was served here
  }
  Flush(fx);
  return Ticket{op};
}

Status Node::HandleRequest(const Message& m) {
  const std::string from =
      std::string(MessageTypeName(m.type)) + " from node " + std::to_string(m.src);
  const bool pull_like = m.type == MessageType::kPullRequest || m.type == MessageType::kSyncRequest;
  if (pull_like && m.slots.size() != m.keys.size())
    return Status::Error(from + ": slots do not match keys");
  // Whether key i brings values: every key of a push or set, a sync key
  // unless it is a poll (kNoDeltaBit), no key of a pull or localize.
  const auto carries = [&m](size_t i) {
    return m.type == MessageType::kSyncRequest ? SyncCarriesDelta(m.slots[i])
                                               : CarriesValues(m.type);
  };
  if (!CarriesValues(m.type)) {
    if (!m.values.empty()) return Status::Error(from + ": unexpected values");
  } else {
    uint64_t need = 0;
    for (size_t i = 0; i < m.keys.size(); ++i)
      if (carries(i)) need += layout().Length(m.keys[i]);
    if (need != m.values.size())
      return Status::Error(from + ": " + std::to_string(m.values.size()) +
                           " values for keys needing " + std::to_string(need));
  }
  Effects fx;
  if (m.type == MessageType::kPullRequest) {
    for (Key k : m.keys) fx.pull_values += layout().Length(k);
  }
  Status status;
  {
    EngineLock g(*this, fx);
    if (m.origin == self_) status = CheckReturning(m);  // before any key applies
    const float* at = m.values.data();
    for (size_t i = 0; status.ok() && i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      Item item{m.type, m.origin, m.op_id, pull_like ? m.slots[i] : 0, {}};
      if (carries(i)) {
        const uint32_t len = layout().Length(k);
        item.values.assign(at, at + len);
        at += len;
      }
      Dispatch(k, std::move(item), (m.aux & kViaHome) != 0, &fx);
    }
  }
  Flush(fx);
  return status;
}

Status Node::CheckReturning(const Message& m) const {
  // A request of our own, forwarded back here (via the home, to the key that
  // moved here meanwhile): it completes a pending operation of ours, so it
  // must match one. A localize request carries no operation.
  if (m.type == MessageType::kLocalizeRequest) return Status::Ok();
  const auto it = ops_.find(m.op_id);
  if (m.type == MessageType::kSyncRequest) {
    // A flush that outlived its round still applies; one that names a round
    // must fit it.
    if (it == ops_.end()) return Status::Ok();
    return CheckOperation(m, MessageType::kSyncRequest, m.keys.size());
  }
  if (Status s = CheckOperation(m, m.type, m.keys.size()); !s.ok()) return s;
  if (m.type != MessageType::kPullRequest) return Status::Ok();
  for (size_t i = 0; i < m.keys.size(); ++i) {
    if (static_cast<uint64_t>(m.slots[i]) + layout().Length(m.keys[i]) > it->second.out_len) {
      return Status::Error(std::string(MessageTypeName(m.type)) + " from node " +
                           std::to_string(m.src) + ": slot " + std::to_string(m.slots[i]) +
                           " outside the output buffer of operation " + std::to_string(m.op_id));
    }
  }
  return Status::Ok();
}

void Node::Dispatch(Key key, Item item, bool via_home, Effects* fx) {
  const bool local = item.origin == self_;
  if (HasMain(key) ||
      (local && item.type != MessageType::kSetRequest && replicas_.count(key) > 0)) {
    Apply(key, item, fx);
    return;
  }
  auto incoming = incoming_.find(key);
  if (HomeOf(key) == self_) {
    auto owner = directory_.find(key);
    if (owner != directory_.end() && owner->second.node != self_) {
      Forward(owner->second.node, key, item, /*via_home=*/true, fx);
    } else if (incoming != incoming_.end()) {
      incoming->second.push_back(std::move(item));  // on its way back home
    } else {
      AUGUR_CHECK(owner == directory_.end(), "key %llu: directory says here, but it is not",
                  static_cast<unsigned long long>(key));
      store_.With(key, /*create=*/true, [](ParamStore::Entry&) {});  // first touch
      Apply(key, item, fx);
    }
    return;
  }
  if (incoming != incoming_.end() && (local || via_home)) {
    incoming->second.push_back(std::move(item));
    return;
  }
  Forward(local ? RemoteDestination(key) : HomeOf(key), key, item, /*via_home=*/false, fx);
}

void Node::Forward(NodeId dest, Key key, const Item& item, bool via_home, Effects* fx) {
  AUGUR_CHECK(dest != self_, "forwarding key %llu to myself", static_cast<unsigned long long>(key));
  if (item.origin != self_) counters_.forwards.fetch_add(1, std::memory_order_relaxed);
  Message& m = fx->out.To(dest, item.type, self_, item.origin, item.op_id, via_home ? kViaHome : 0);
  m.keys.push_back(key);
  if (item.type == MessageType::kPullRequest || item.type == MessageType::kSyncRequest)
    m.slots.push_back(item.slot);
  m.values.insert(m.values.end(), item.values.begin(), item.values.end());
}

void Node::Apply(Key key, Item& item, Effects* fx) {
  const bool local = item.origin == self_;
  switch (item.type) {
    case MessageType::kPullRequest: {
      if (local) {
        PendingOp& op = ops_.at(item.op_id);
        store_.Pull(key, op.out + item.slot, false);
        CompleteKeys(item.op_id, 1, fx);
        return;
      }
      Message& m =
          fx->out.To(item.origin, MessageType::kPullResponse, self_, item.origin, item.op_id);
      if (m.values.empty() && fx->pull_values > 0) {
        m.values.reserve(fx->pull_values);  // one allocation for the whole response
        m.keys.reserve(fx->pull_values / std::max<uint32_t>(1, layout().Length(key)) + 1);
        m.slots.reserve(m.keys.capacity());
      }
      m.keys.push_back(key);
      m.slots.push_back(item.slot);
      const size_t at = m.values.size();
      m.values.resize(at + layout().Length(key));
      store_.Pull(key, m.values.data() + at, false);
      return;
    }
    case MessageType::kPushRequest:
    case MessageType::kSetRequest: {
      const bool push = item.type == MessageType::kPushRequest;
      if (push) {
        store_.Push(key, item.values.data(), false);
      } else {
        store_.Set(key, item.values.data(), false);
      }
      if (local) {
        CompleteKeys(item.op_id, 1, fx);
      } else {
        ++fx->out
              .Ack(item.origin, push ? MessageType::kPushAck : MessageType::kSetAck, self_,
                   item.op_id)
              .aux;
      }
      return;
    }
    case MessageType::kLocalizeRequest:
      PlaceKey(key, item.origin, fx);
      return;
    case MessageType::kSyncRequest:
      ApplySync(key, item, fx);
      return;
    default:
      AUGUR_CHECK(false, "cannot apply %s", MessageTypeName(item.type));
  }
}

}  // namespace augur

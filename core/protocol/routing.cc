#include "core/protocol/routing.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/protocol/intent_tracker.h"
#include "core/protocol/relocation.h"
#include "core/protocol/replication.h"

namespace augur {

namespace {
bool CarriesValues(MessageType t) {
  return t == MessageType::kPushRequest || t == MessageType::kSetRequest ||
         t == MessageType::kSyncRequest;
}
}  // namespace

Routing::Routing(EngineContext& cx, Relocation& relocation, Replication& replication,
                 IntentTracker& intents, size_t location_cache_capacity)
    : cx_(cx),
      relocation_(relocation),
      replication_(replication),
      intents_(intents),
      location_cache_capacity_(location_cache_capacity) {}

void Routing::NoteLocation(Key key, NodeId node) {
  const NodeId home = cx_.HomeOf(key);
  // A key homed here is found through the directory, never through this
  // cache (RemoteDestination); on 2 nodes no key is ever cached.
  if (home == cx_.self) return;
  if (node == cx_.self || node == home) {
    location_cache_.Erase(key);
    return;
  }
  if (location_cache_.size() >= location_cache_capacity_) location_cache_.Clear();
  location_cache_.Assign(key, node);
}

NodeId Routing::RemoteDestination(Key key) const {
  // A key handed over from here whose home has not heard of it yet goes to
  // its new owner: the home would send a request for it straight back here.
  if (const NodeId* handed = relocation_.DeferredOwner(key)) return *handed;
  const NodeId* cached = location_cache_.Find(key);
  return cached != nullptr ? *cached : cx_.HomeOf(key);
}

Ticket Routing::SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                         std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                         const float* in, std::span<float> out) {
  Effects fx = Effects::ForWorker();
  uint64_t op = 0;
  {
    EngineLock g(cx_, fx);
    std::array<Key, OperationTable::kFirstKeys> first{};
    const size_t firsts = std::min(missing.size(), first.size());
    for (size_t j = 0; j < firsts; ++j) first[j] = keys[missing[j]];
    op = cx_.ops.Begin(w, type, missing.size(), out.data(), out.size(),
                       std::span<const Key>(first.data(), firsts));
    const bool counts_intents = cx_.policy.LocalizesOnIntent();  // once, not per key
    // Each key probes the intent table (late or unannounced?) and, if homed
    // here, the directory: hash probes that miss the cache in large tables,
    // loaded kPrefetchAhead keys ahead so their misses overlap.
    constexpr size_t kPrefetchAhead = 8;
    const auto prefetch = [&](size_t j) {
      if (j >= missing.size()) return;
      const Key k = keys[missing[j]];
      if (counts_intents) intents_.PrefetchActive(k);
      if (cx_.HomeOf(k) == cx_.self) relocation_.PrefetchDirectoryEntry(k);
    };
    for (size_t j = 0; j < kPrefetchAhead; ++j) prefetch(j);
    for (size_t j = 0; j < missing.size(); ++j) {
      prefetch(j + kPrefetchAhead);
      const uint32_t idx = missing[j];
      const Key k = keys[idx];
      const uint32_t len = cx_.layout().Length(k);
      KeyRequest item(type, cx_.self, op, type == MessageType::kPullRequest ? offsets[idx] : 0);
      if (in != nullptr) item.values = {in + offsets[idx], cx_.RequestValues(type, k)};
      if (counts_intents) {
        const IntentTable::Counts intent = intents_.Active(k);
        if (intent.ahead > 0) {
          cx_.counters.Add(NodeCounter::kLateAccesses);
        } else if (intent.count > 0) {
          cx_.counters.Add(NodeCounter::kUnannouncedAccesses);
        }
      }
      if (type == MessageType::kSetRequest) {
        // A Set on a replica: the replica takes the value now (its delta is
        // superseded) and the Set travels to the main copy.
        cx_.store.With(k, false, [&](ParamStore::Entry& e) {
          if (e.kind != CopyKind::kReplica) return;
          std::memcpy(e.value, item.values.data(), len * sizeof(float));
          std::memset(e.delta, 0, cx_.store.DeltaLength(k) * sizeof(float));
        });
      } else if (cx_.policy.IsStaticReplica(k) && cx_.HomeOf(k) != cx_.self &&
                 !relocation_.Incoming(k) && !cx_.store.Contains(k)) {
        relocation_.RequestLocalize(k, &fx);  // static replica: fetched on first touch
      }
      Dispatch(k, std::move(item), /*via_home=*/false, &fx);
    }
    if (!cx_.ops.Pending(op)) op = 0;  // every key was served here
  }
  cx_.Flush(fx);
  return Ticket{op};
}

Status Routing::HandleRequest(const Message& m) {
  // Built for an error only: not on every message.
  const auto from = [&m] {
    return std::string(MessageTypeName(m.type)) + " from node " + std::to_string(m.src);
  };
  const bool pull_like = m.type == MessageType::kPullRequest || m.type == MessageType::kSyncRequest;
  if (pull_like && m.slots.size() != m.keys.size())
    return Status::Error(from() + ": slots do not match keys");
  // Whether key i brings values: every key of a push or set, a sync key
  // unless it is a poll (kNoDeltaBit), no key of a pull or localize.
  const auto carries = [&m](size_t i) {
    return m.type == MessageType::kSyncRequest ? SyncCarriesDelta(m.slots[i])
                                               : CarriesValues(m.type);
  };
  if (!CarriesValues(m.type)) {
    if (!m.values.empty()) return Status::Error(from() + ": unexpected values");
  } else {
    uint64_t need = 0;
    for (size_t i = 0; i < m.keys.size(); ++i)
      if (carries(i)) need += cx_.RequestValues(m.type, m.keys[i]);
    if (need != m.values.size())
      return Status::Error(from() + ": " + std::to_string(m.values.size()) +
                           " values for keys needing " + std::to_string(need));
  }
  Effects fx;
  if (m.type == MessageType::kPullRequest) {
    for (Key k : m.keys) fx.pull_values += cx_.layout().Length(k);
  }
  Status status;
  {
    EngineLock g(cx_, fx);
    if (m.origin == cx_.self) status = CheckReturning(m);  // before any key applies
    const auto dispatch = [&](size_t i, const float* values, bool main_here) {
      const Key k = m.keys[i];
      KeyRequest item(m.type, m.origin, m.op_id, pull_like ? m.slots[i] : 0);
      if (values != nullptr) item.values = {values, cx_.RequestValues(m.type, k)};
      Dispatch(k, std::move(item), (m.aux & kViaHome) != 0, main_here, &fx);
    };
    if (status.ok() && m.origin != cx_.self &&
        (m.type == MessageType::kPullRequest || m.type == MessageType::kPushRequest)) {
      ServeMainCopies(m, &fx);
      // Not main copies here: serving the others moved nothing, and the first
      // touch of a key homed here (a repeated key) leads to the same Apply.
      for (uint32_t i : batch_.missing)
        dispatch(i, carries(i) ? m.values.data() + offsets_[i] : nullptr, false);
    } else if (status.ok()) {
      // Where the main copies are, looked up at once. An Apply that moves a
      // key (a hand-over) makes that stale for a repeated key: after any
      // move the rest are looked up one by one.
      cx_.store.HeldBatch(m.keys, /*main_only=*/true, &batch_);
      const uint64_t moves = cx_.store.moves();
      const float* at = m.values.data();
      for (size_t i = 0; i < m.keys.size(); ++i) {
        const float* values = carries(i) ? at : nullptr;
        if (values != nullptr) at += cx_.RequestValues(m.type, m.keys[i]);
        const bool main_here =
            cx_.store.moves() == moves ? batch_.found[i] != 0 : cx_.HasMain(m.keys[i]);
        dispatch(i, values, main_here);
      }
    }
  }
  cx_.Flush(fx);
  return status;
}

void Routing::ServeMainCopies(const Message& m, Effects* fx) {
  offsets_.resize(m.keys.size());
  uint32_t total = 0;
  for (size_t i = 0; i < m.keys.size(); ++i) {
    offsets_[i] = total;
    total += cx_.RequestValues(m.type, m.keys[i]);  // a push's delta, a pull's value
  }
  const size_t n = m.keys.size();
  if (m.type == MessageType::kPushRequest) {
    cx_.store.PushMainBatch(m.keys, offsets_, m.values.data(), &batch_);
    const size_t served = n - batch_.missing.size();
    if (served > 0)
      fx->out.Ack(m.origin, MessageType::kPushAck, cx_.self, m.op_id).aux +=
          static_cast<uint32_t>(served);
    return;
  }
  pulled_.resize(total);
  cx_.store.PullMainBatch(m.keys, offsets_, pulled_.data(), &batch_);
  const std::vector<uint32_t>& missing = batch_.missing;
  if (missing.size() == n) return;  // nothing here: no response yet
  // The handler's first message, so an empty one.
  Message& r = fx->out.To(m.origin, MessageType::kPullResponse, cx_.self, m.origin, m.op_id);
  if (missing.empty()) {
    r.keys = m.keys;
    r.slots = m.slots;
    r.values = std::move(pulled_);  // no copy: the next request pulls into a new buffer
    pulled_ = {};
    return;
  }
  r.values.reserve(total);
  for (size_t i = 0, next = 0; i < m.keys.size(); ++i) {
    if (next < missing.size() && missing[next] == i) {
      ++next;
      continue;
    }
    r.keys.push_back(m.keys[i]);
    r.slots.push_back(m.slots[i]);
    const float* v = pulled_.data() + offsets_[i];
    r.values.insert(r.values.end(), v, v + cx_.layout().Length(m.keys[i]));
  }
}

Status Routing::CheckReturning(const Message& m) const {
  // A request of our own, forwarded back here (via the home, to the key that
  // moved here meanwhile): it completes a pending operation of ours, so it
  // must match one. A localize request carries no operation.
  if (m.type == MessageType::kLocalizeRequest) return Status::Ok();
  const OperationTable::PendingOp* op = cx_.ops.Find(m.op_id);
  if (m.type == MessageType::kSyncRequest) {
    // A flush that outlived its round still applies; one that names a round
    // must fit it.
    if (op == nullptr) return Status::Ok();
    return cx_.ops.Check(m, MessageType::kSyncRequest, m.keys.size());
  }
  if (Status s = cx_.ops.Check(m, m.type, m.keys.size()); !s.ok()) return s;
  if (m.type != MessageType::kPullRequest) return Status::Ok();
  for (size_t i = 0; i < m.keys.size(); ++i) {
    if (static_cast<uint64_t>(m.slots[i]) + cx_.layout().Length(m.keys[i]) > op->out_len) {
      return Status::Error(std::string(MessageTypeName(m.type)) + " from node " +
                           std::to_string(m.src) + ": slot " + std::to_string(m.slots[i]) +
                           " outside the output buffer of operation " + std::to_string(m.op_id));
    }
  }
  return Status::Ok();
}

void Routing::Dispatch(Key key, KeyRequest item, bool via_home, bool main_here, Effects* fx) {
  const bool local = item.origin == cx_.self;
  if (main_here ||
      (local && item.type != MessageType::kSetRequest && replication_.HoldsReplica(key))) {
    Apply(key, item, fx);
    return;
  }
  std::vector<KeyRequest>* incoming = relocation_.InTransfer(key);
  if (cx_.HomeOf(key) == cx_.self) {
    const Relocation::Owner* owner = relocation_.DirectoryEntry(key);
    if (owner != nullptr && owner->node != cx_.self) {
      Forward(owner->node, key, item, /*via_home=*/true, fx);
    } else if (incoming != nullptr) {
      item.Own();                            // outlives this call
      incoming->push_back(std::move(item));  // on its way back home
    } else {
      AUGUR_CHECK(owner == nullptr, "key %llu: directory says here, but it is not",
                  static_cast<unsigned long long>(key));
      cx_.store.With(key, /*create=*/true, [](ParamStore::Entry&) {});  // first touch
      Apply(key, item, fx);
    }
    return;
  }
  if (local && item.type == MessageType::kLocalizeRequest && incoming != nullptr) {
    // Our own localize request, back here: its sender took us for the owner.
    relocation_.NoteBounced(key);
    return;
  }
  // This node handed the key over and has not told the home yet (its owner
  // update waits for the next sync round): the home may still route requests
  // for it here, so they go on to the new owner. Queued here, one of them
  // (this node's own request for the key, bounced back) would wait for a key
  // nobody sends.
  const NodeId* handed = relocation_.DeferredOwner(key);
  if (incoming != nullptr && (local || (via_home && handed == nullptr))) {
    // The home sent it here because its directory names this node: either
    // the key is on its way here (queue it), or this node handed the key
    // over and the home has not processed that owner update yet. Queued then,
    // it would wait for a key that goes elsewhere; with two such nodes each
    // holding the other's request, neither ever gets the key (wv, pool
    // sampling, 3 time-sliced nodes with 0.8 ms wake-ups: the update took
    // longer than the two sync rounds DeferredOwner waits). So it goes back
    // to the home, behind that update on the same ordered channel.
    if (!local && relocation_.HandedAway(key)) {
      Forward(cx_.HomeOf(key), key, item, /*via_home=*/false, fx);
      return;
    }
    item.Own();  // outlives this call
    incoming->push_back(std::move(item));
    return;
  }
  // Another node's request goes via the home, whose directory is the authority.
  Forward(handed != nullptr ? *handed
          : local           ? RemoteDestination(key)
                            : cx_.HomeOf(key),
          key, item, /*via_home=*/false, fx);
}

void Routing::Forward(NodeId dest, Key key, const KeyRequest& item, bool via_home, Effects* fx) {
  AUGUR_CHECK(dest != cx_.self, "forwarding key %llu to myself",
              static_cast<unsigned long long>(key));
  if (item.origin != cx_.self) cx_.counters.Add(NodeCounter::kForwards);
  Message& m =
      fx->out.To(dest, item.type, cx_.self, item.origin, item.op_id, via_home ? kViaHome : 0);
  m.keys.push_back(key);
  if (item.type == MessageType::kPullRequest || item.type == MessageType::kSyncRequest)
    m.slots.push_back(item.slot);
  m.values.insert(m.values.end(), item.values.begin(), item.values.end());
}

void Routing::Apply(Key key, KeyRequest& item, Effects* fx) {
  const bool local = item.origin == cx_.self;
  switch (item.type) {
    case MessageType::kPullRequest: {
      if (local) {
        const OperationTable::PendingOp* op = cx_.ops.Find(item.op_id);
        cx_.store.Pull(key, op->out + item.slot, false);
        cx_.ops.Complete(item.op_id, 1, fx);
        return;
      }
      Message& m =
          fx->out.To(item.origin, MessageType::kPullResponse, cx_.self, item.origin, item.op_id);
      if (m.values.empty() && fx->pull_values > 0) {
        m.values.reserve(fx->pull_values);  // one allocation for the whole response
        m.keys.reserve(fx->pull_values / std::max<uint32_t>(1, cx_.layout().Length(key)) + 1);
        m.slots.reserve(m.keys.capacity());
      }
      m.keys.push_back(key);
      m.slots.push_back(item.slot);
      const size_t at = m.values.size();
      m.values.resize(at + cx_.layout().Length(key));
      cx_.store.Pull(key, m.values.data() + at, false);
      return;
    }
    case MessageType::kPushRequest:
    case MessageType::kSetRequest: {
      const bool push = item.type == MessageType::kPushRequest;
      if (push) {
        cx_.store.Push(key, item.values.data(), false);
      } else {
        cx_.store.Set(key, item.values.data(), false);
      }
      if (local) {
        cx_.ops.Complete(item.op_id, 1, fx);
      } else {
        ++fx->out
              .Ack(item.origin, push ? MessageType::kPushAck : MessageType::kSetAck, cx_.self,
                   item.op_id)
              .aux;
      }
      return;
    }
    case MessageType::kLocalizeRequest:
      relocation_.PlaceKey(key, item.origin, fx);
      return;
    case MessageType::kSyncRequest:
      replication_.ApplySync(key, item, fx);
      return;
    default:
      AUGUR_CHECK(false, "cannot apply %s", MessageTypeName(item.type));
  }
}

Status Routing::HandleResponse(const Message& m, std::span<const uint8_t> pull_values) {
  const bool pull = m.type == MessageType::kPullResponse;
  if (pull) {
    if (Status s = cx_.CheckValueCount(m, false, pull_values.size() / sizeof(float)); !s.ok())
      return s;
    if (m.slots.size() != m.keys.size())
      return Status::Error(EngineContext::From(m) + ": slots do not match keys");
  } else if (!m.keys.empty() || !m.slots.empty() || !pull_values.empty() || !m.values.empty()) {
    return Status::Error(EngineContext::From(m) +
                         ": malformed (an acknowledgement carries a count only)");
  }
  const MessageType kind = pull                              ? MessageType::kPullRequest
                           : m.type == MessageType::kPushAck ? MessageType::kPushRequest
                                                             : MessageType::kSetRequest;
  const uint64_t keys = pull ? m.keys.size() : m.aux;
  Effects fx;
  Status status;
  {
    EngineLock g(cx_, fx);
    status = cx_.ops.Check(m, kind, keys);
    if (status.ok() && pull) {
      // Validate every slot before writing any value.
      const OperationTable::PendingOp& op = *cx_.ops.Find(m.op_id);
      for (size_t i = 0; i < m.keys.size(); ++i) {
        if (static_cast<uint64_t>(m.slots[i]) + cx_.layout().Length(m.keys[i]) > op.out_len) {
          status = Status::Error(EngineContext::From(m) + ": slot " + std::to_string(m.slots[i]) +
                                 " outside the output buffer");
          break;
        }
      }
    }
    if (status.ok()) {
      if (pull) {
        const OperationTable::PendingOp& op = *cx_.ops.Find(m.op_id);
        const uint8_t* at = pull_values.data();
        for (size_t i = 0; i < m.keys.size(); ++i) {
          const uint32_t len = cx_.layout().Length(m.keys[i]);
          std::memcpy(op.out + m.slots[i], at, len * sizeof(float));
          at += len * sizeof(float);
          NoteLocation(m.keys[i], m.src);
        }
      }
      cx_.ops.Complete(m.op_id, keys, &fx);
    }
  }
  cx_.Flush(fx);  // also after a refusal: no wake-up staged by another call is lost
  return status;
}

}  // namespace augur

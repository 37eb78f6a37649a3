#include "core/protocol/relocation.h"

#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/protocol/intent_tracker.h"
#include "core/protocol/quiesce.h"
#include "core/protocol/replication.h"
#include "core/protocol/routing.h"

namespace augur {

Relocation::Relocation(EngineContext& cx, Routing& routing, Replication& replication,
                       IntentTracker& intents, Quiesce& quiesce, bool immediate_owner_updates)
    : cx_(cx),
      routing_(routing),
      replication_(replication),
      intents_(intents),
      quiesce_(quiesce),
      immediate_owner_updates_(immediate_owner_updates) {}

namespace {
// RFC 1982 serial-number comparison for 16-bit epochs.
bool Newer(uint16_t a, uint16_t b) { return static_cast<int16_t>(a - b) > 0; }
}  // namespace

void Relocation::RequestLocalize(Key key, Effects* fx) {
  const bool home = cx_.HomeOf(key) == cx_.self;
  const Owner* owner = DirectoryEntry(key);
  if (home && (owner == nullptr || owner->node == cx_.self)) return;  // ours
  incoming_[key];                    // operations on it queue here until it arrives
  fx->arm_timer = !cx_.timer_armed;  // replicas it may bring need sync rounds
  cx_.counters.Add(NodeCounter::kLocalizeRequests);
  SendLocalize(home ? owner->node : routing_.RemoteDestination(key), key, home ? kViaHome : 0, fx);
}

void Relocation::SendLocalize(NodeId dest, Key key, uint32_t flags, Effects* fx) {
  fx->out.To(dest, MessageType::kLocalizeRequest, cx_.self, cx_.self, 0, flags).keys.push_back(key);
}

void Relocation::PlaceKey(Key key, NodeId requester, Effects* fx) {
  if (requester == cx_.self) return;
  bool known = false;
  const uint32_t others = replication_.OtherHolders(key, requester, &known);
  const KeyView view{key, intents_.ActiveCount(key) > 0, others};
  // A main copy that other nodes hold replicas of stays where their syncs
  // find it (policies that never replicate meet one only from a peer's
  // unsolicited sync request): the requester gets a replica too.
  if (others > 0 || cx_.policy.IsStaticReplica(key) ||
      cx_.policy.Place(view) == Placement::kReplicate) {
    replication_.Grant(key, requester, known, fx);
    return;
  }
  replication_.ForgetHolders(key);
  HandOver(key, requester, 0, fx);
}

void Relocation::HandOver(Key key, NodeId to, uint64_t op_id, Effects* fx) {
  uint16_t epoch = 0;
  cx_.store.With(key, false,
                 [&](ParamStore::Entry& e) { epoch = static_cast<uint16_t>(*e.version + 1); });
  std::vector<float> row(cx_.store.RowLength(key));
  AUGUR_CHECK(cx_.store.Remove(key, row.data()), "handing over absent key %llu",
              static_cast<unsigned long long>(key));
  const NodeId home = cx_.HomeOf(key);
  if (home == cx_.self) {
    directory_.Assign(key, Owner{to, epoch});
  } else if (home == to || immediate_owner_updates_) {
    // Built before the hand-over, so when to == home the update arrives first
    // (the home must know the key is coming before a request for it can
    // reach it from here).
    Message& u = fx->out.To(home, MessageType::kOwnerUpdate, cx_.self, cx_.self, 0, to);
    u.keys.push_back(key);
    u.slots.push_back(epoch);
    // Until it has surely arrived, as for a deferred one (OnSyncRound).
    handed_to_.Assign(key, HandedTo{to, true});
    sent_updates_.push_back(SentUpdate{key, to, round_});
    fx->arm_timer = !cx_.timer_armed;
  } else {
    deferred_updates_.push_back(DeferredUpdate{to, key, epoch});
    handed_to_.Assign(key, HandedTo{to, true});
    fx->arm_timer = !cx_.timer_armed;
  }
  Message& m = fx->out.To(to, MessageType::kHandover, cx_.self, cx_.self, op_id);
  m.keys.push_back(key);
  m.slots.push_back(epoch);
  m.values.insert(m.values.end(), row.begin(), row.end());
  routing_.NoteLocation(key, to);
  cx_.counters.Add(NodeCounter::kRelocations);
}

void Relocation::OnSyncRound(Effects* fx) {
  ++round_;
  // The pointers to owners whose updates left two rounds ago: the homes
  // usually have them by now (each node sends its deferred updates every
  // round), so their directories no longer route those keys' requests here;
  // one that still does is answered by Routing::Dispatch (HandedAway). Key
  // by key: FlatKeyMap::Clear would sweep every bucket each sync round.
  size_t still = 0;
  for (const SentUpdate& u : sent_updates_) {
    if (round_ < u.round + 2) {
      sent_updates_[still++] = u;
      continue;
    }
    // Unless a later hand-over (or the key's return) changed the pointer.
    if (HandedTo* to = handed_to_.Find(u.key); to != nullptr && to->node == u.owner)
      to->deferred = false;
  }
  sent_updates_.resize(still);
  for (const DeferredUpdate& d : deferred_updates_) {
    Message& u =
        fx->out.To(cx_.HomeOf(d.key), MessageType::kOwnerUpdate, cx_.self, cx_.self, 0, d.owner);
    u.keys.push_back(d.key);
    u.slots.push_back(d.epoch);
    // The pointer stays until the update has surely arrived: meanwhile the
    // home may still route the key's requests here, and this node, if it
    // wants the key back, would queue them behind its own request; with two
    // or more such nodes each holding the others' requests, none would ever
    // get the key (seen at 8 x 4, kge on the Debian graph).
    sent_updates_.push_back(SentUpdate{d.key, d.owner, round_});
  }
  deferred_updates_.clear();
  // A bounced request goes again once a full round has passed since it came
  // back, unless its key has arrived (or is no longer wanted) meanwhile.
  size_t kept = 0;
  for (const Bounced& b : bounced_) {
    if (!Incoming(b.key)) continue;
    if (round_ < b.round + 2) {
      bounced_[kept++] = b;
      continue;
    }
    cx_.counters.Add(NodeCounter::kLocalizeRetries);
    SendLocalize(cx_.HomeOf(b.key), b.key, 0, fx);
  }
  bounced_.resize(kept);
}

void Relocation::NoteBounced(Key key) {
  for (const Bounced& b : bounced_)
    if (b.key == key) return;  // already due
  bounced_.push_back(Bounced{key, round_});
}

Status Relocation::HandleOwnerUpdate(const Message& m) {
  const std::string from = "owner-update from node " + std::to_string(m.src);
  if (m.aux >= cx_.num_nodes || m.slots.size() != m.keys.size() || !m.values.empty())
    return Status::Error(from + ": malformed");
  // The whole message is checked before any of it applies.
  for (size_t i = 0; i < m.keys.size(); ++i) {
    if (cx_.HomeOf(m.keys[i]) != cx_.self) {
      return Status::Error(from + ": key " + std::to_string(m.keys[i]) + " is not homed here");
    }
    if (m.slots[i] > 0xFFFF)
      return Status::Error(from + ": epoch " + std::to_string(m.slots[i]) + " is not 16-bit");
  }
  Effects fx;
  {
    EngineLock g(cx_, fx);
    for (size_t i = 0; i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      const uint16_t epoch = static_cast<uint16_t>(m.slots[i]);
      const Owner* known = directory_.Find(k);
      uint16_t current = 0;
      bool have = known != nullptr;
      if (have) current = known->epoch;
      cx_.store.With(k, false, [&](ParamStore::Entry& e) {
        if (e.kind == CopyKind::kMain) {
          have = true;
          current = *e.version;
        }
      });
      if (have && !Newer(epoch, current)) continue;  // a late, superseded update
      directory_.Assign(k, Owner{m.aux, epoch});
      if (m.aux == cx_.self && !cx_.HasMain(k)) incoming_[k];  // coming home: queue until it lands
    }
  }
  cx_.Flush(fx);
  return Status::Ok();
}

Status Relocation::HandleHandover(const Message& m) {
  const std::string from = "handover from node " + std::to_string(m.src);
  if (Status s = cx_.CheckValueCount(m, true); !s.ok()) return s;
  if (m.slots.size() != m.keys.size()) return Status::Error(from + ": malformed");
  for (uint32_t epoch : m.slots)
    if (epoch > 0xFFFF)
      return Status::Error(from + ": epoch " + std::to_string(epoch) + " is not 16-bit");
  if (Status s = cx_.CheckDistinctKeys(m); !s.ok()) return s;
  Effects fx;
  Status status;
  {
    EngineLock g(cx_, fx);
    // Checked whole, under the lock, before any key applies.
    cx_.store.HeldBatch(m.keys, /*main_only=*/true, &batch_);
    for (size_t i = 0; i < m.keys.size(); ++i) {
      if (batch_.found[i] != 0) {
        status = Status::Error(from + ": key " + std::to_string(m.keys[i]) +
                               " already has its main copy here");
        break;
      }
    }
    // A hand-over answering a sync round (an upgrade) completes its keys.
    const OperationTable::PendingOp* op = m.op_id != 0 ? cx_.ops.Find(m.op_id) : nullptr;
    if (status.ok() && op != nullptr &&
        (op->kind != MessageType::kSyncRequest || op->remaining_keys < m.keys.size())) {
      status = Status::Error(from + ": does not match operation " + std::to_string(m.op_id));
    }
    const float* row = m.values.data();
    for (size_t i = 0; status.ok() && i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      // An upgrade applies what was pushed to the replica since its last flush.
      replication_.ForgetReplica(k);
      cx_.store.InstallMain(k, row, static_cast<uint16_t>(m.slots[i]));
      row += cx_.store.RowLength(k);
      routing_.ForgetLocation(k);
      // Back here: requests for it stop going where it was handed last (its
      // owner update, if still deferred, goes out all the same; the home
      // keeps the newer epoch).
      handed_to_.Erase(k);
      const Owner* owner = directory_.Find(k);
      if (owner != nullptr && owner->node == cx_.self) directory_.Erase(k);
      DrainQueue(k, &fx);
      if (m.op_id != 0 && cx_.ops.Pending(m.op_id)) cx_.ops.Complete(m.op_id, 1, &fx);
    }
  }
  cx_.Flush(fx);  // also after a refusal: no wake-up staged by another call is lost
  return status;
}

void Relocation::DrainQueue(Key key, Effects* fx) {
  auto it = incoming_.find(key);
  if (it == incoming_.end()) return;
  std::vector<KeyRequest> items = std::move(it->second);
  incoming_.erase(it);
  if (quiesce_.paused() && incoming_.empty())
    cx_.ops.WakeWaiting(fx);  // a worker may wait for quiescence
  // Dispatch applies what the local copy can serve (everything on a main
  // copy; a replica serves local pulls and pushes) and forwards the rest.
  for (KeyRequest& item : items) routing_.Dispatch(key, std::move(item), /*via_home=*/false, fx);
}

}  // namespace augur

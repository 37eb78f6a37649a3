// Node: relocation and placement (REFERENCE §2.3, §2.6 "what").
//
// A node that wants a key sends a localize request towards the main copy.
// The owner asks the Policy: relocate (hand the row over and tell the home
// node, 3 messages in all) or replicate (grant a replica and remember the
// holder). The receiver installs the row and applies the operations that
// queued while the key travelled, in arrival order; a queued localize from a
// third node chains the key straight on.
#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/protocol/node.h"
#include "core/protocol/row_digest.h"

namespace augur {

namespace {
// RFC 1982 serial-number comparison for 16-bit epochs.
bool Newer(uint16_t a, uint16_t b) { return static_cast<int16_t>(a - b) > 0; }
}  // namespace

void Node::RequestLocalize(Key key, Effects* fx) {
  const bool home = HomeOf(key) == self_;
  auto owner = directory_.find(key);
  if (home && (owner == directory_.end() || owner->second.node == self_)) return;  // ours
  incoming_[key];                 // operations on it queue here until it arrives
  fx->arm_timer = !timer_armed_;  // replicas it may bring need sync rounds
  counters_.localize_requests.fetch_add(1, std::memory_order_relaxed);
  const NodeId dest = home ? owner->second.node : RemoteDestination(key);
  fx->out.To(dest, MessageType::kLocalizeRequest, self_, self_, 0, home ? kViaHome : 0)
      .keys.push_back(key);
}

void Node::PlaceKey(Key key, NodeId requester, Effects* fx) {
  if (requester == self_) return;
  auto hs = holders_.find(key);
  uint32_t others = 0;
  bool known = false;
  if (hs != holders_.end()) {
    for (const Holder& h : hs->second) {
      if (h.node == requester) {
        known = true;
      } else {
        ++others;
      }
    }
  }
  const KeyView view{key, intents_.ActiveCount(key) > 0, others};
  // A main copy that other nodes hold replicas of stays where their syncs
  // find it (policies that never replicate meet one only from a peer's
  // unsolicited sync request): the requester gets a replica too.
  if (others > 0 || policy_->IsStaticReplica(key) ||
      policy_->Place(view) == Placement::kReplicate) {
    std::vector<Holder>& list = holders_[key];
    if (!known) list.push_back(Holder{.node = requester});
    Message& m = fx->out.To(requester, MessageType::kReplicaGrant, self_, self_, 0);
    m.keys.push_back(key);
    const size_t at = m.values.size();
    const uint32_t row_len = store_.RowLength(key);
    m.values.resize(at + row_len);
    store_.ReadRow(key, m.values.data() + at);
    // The holder's replica now starts from this row: sync rounds compare with it.
    const uint64_t digest = RowDigest(m.values.data() + at, row_len);
    for (Holder& h : list)
      if (h.node == requester) h.sent = digest;
    return;
  }
  if (hs != holders_.end()) holders_.erase(hs);
  HandOver(key, requester, 0, fx);
}

void Node::HandOver(Key key, NodeId to, uint64_t op_id, Effects* fx) {
  uint16_t epoch = 0;
  store_.With(key, false,
              [&](ParamStore::Entry& e) { epoch = static_cast<uint16_t>(*e.version + 1); });
  std::vector<float> row(store_.RowLength(key));
  AUGUR_CHECK(store_.Remove(key, row.data()), "handing over absent key %llu",
              static_cast<unsigned long long>(key));
  const NodeId home = HomeOf(key);
  if (home == self_) {
    directory_[key] = Owner{to, epoch};
  } else {
    // Built before the hand-over, so when to == home the update arrives first.
    Message& u = fx->out.To(home, MessageType::kOwnerUpdate, self_, self_, 0, to);
    u.keys.push_back(key);
    u.slots.push_back(epoch);
  }
  Message& m = fx->out.To(to, MessageType::kHandover, self_, self_, op_id);
  m.keys.push_back(key);
  m.slots.push_back(epoch);
  m.values.insert(m.values.end(), row.begin(), row.end());
  NoteLocation(key, to);
  counters_.relocations.fetch_add(1, std::memory_order_relaxed);
}

Status Node::HandleOwnerUpdate(const Message& m) {
  const std::string from = "owner-update from node " + std::to_string(m.src);
  if (m.aux >= num_nodes_ || m.slots.size() != m.keys.size() || !m.values.empty())
    return Status::Error(from + ": malformed");
  // The whole message is checked before any of it applies.
  for (size_t i = 0; i < m.keys.size(); ++i) {
    if (HomeOf(m.keys[i]) != self_) {
      return Status::Error(from + ": key " + std::to_string(m.keys[i]) + " is not homed here");
    }
    if (m.slots[i] > 0xFFFF)
      return Status::Error(from + ": epoch " + std::to_string(m.slots[i]) + " is not 16-bit");
  }
  Effects fx;
  {
    EngineLock g(*this, fx);
    for (size_t i = 0; i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      const uint16_t epoch = static_cast<uint16_t>(m.slots[i]);
      auto it = directory_.find(k);
      uint16_t current = 0;
      bool have = it != directory_.end();
      if (have) current = it->second.epoch;
      store_.With(k, false, [&](ParamStore::Entry& e) {
        if (e.kind == CopyKind::kMain) {
          have = true;
          current = *e.version;
        }
      });
      if (have && !Newer(epoch, current)) continue;  // a late, superseded update
      directory_[k] = Owner{m.aux, epoch};
      if (m.aux == self_ && !HasMain(k)) incoming_[k];  // coming home: queue until it lands
    }
  }
  Flush(fx);
  return Status::Ok();
}

Status Node::HandleHandover(const Message& m) {
  const std::string from = "handover from node " + std::to_string(m.src);
  if (Status s = CheckValueCount(m, true); !s.ok()) return s;
  if (m.slots.size() != m.keys.size()) return Status::Error(from + ": malformed");
  for (uint32_t epoch : m.slots)
    if (epoch > 0xFFFF)
      return Status::Error(from + ": epoch " + std::to_string(epoch) + " is not 16-bit");
  if (Status s = CheckDistinctKeys(m); !s.ok()) return s;
  Effects fx;
  Status status;
  {
    EngineLock g(*this, fx);
    // Checked whole, under the lock, before any key applies.
    for (Key k : m.keys) {
      if (HasMain(k)) {
        status =
            Status::Error(from + ": key " + std::to_string(k) + " already has its main copy here");
        break;
      }
    }
    // A hand-over answering a sync round (an upgrade) completes its keys.
    auto op = m.op_id != 0 ? ops_.find(m.op_id) : ops_.end();
    if (status.ok() && op != ops_.end() &&
        (op->second.kind != MessageType::kSyncRequest ||
         op->second.remaining_keys < m.keys.size())) {
      status = Status::Error(from + ": does not match operation " + std::to_string(m.op_id));
    }
    const float* row = m.values.data();
    for (size_t i = 0; status.ok() && i < m.keys.size(); ++i) {
      const Key k = m.keys[i];
      // An upgrade applies what was pushed to the replica since its last flush.
      replicas_.erase(k);
      store_.InstallMain(k, row, static_cast<uint16_t>(m.slots[i]));
      row += store_.RowLength(k);
      location_cache_.erase(k);
      auto owner = directory_.find(k);
      if (owner != directory_.end() && owner->second.node == self_) directory_.erase(owner);
      DrainQueue(k, &fx);
      if (m.op_id != 0 && ops_.count(m.op_id)) CompleteKeys(m.op_id, 1, &fx);
    }
  }
  Flush(fx);  // also after a refusal: no wake-up staged by another call is lost
  return status;
}

Status Node::HandleReplicaGrant(const Message& m) {
  const std::string from = "replica-grant from node " + std::to_string(m.src);
  if (Status s = CheckValueCount(m, true); !s.ok()) return s;
  if (!m.slots.empty()) return Status::Error(from + ": malformed (slots)");
  Effects fx;
  Status status;
  {
    EngineLock g(*this, fx);
    // Checked whole, under the lock, before any key applies.
    for (Key k : m.keys) {
      if (HasMain(k)) {
        status = Status::Error(from + ": key " + std::to_string(k) + " has its main copy here");
        break;
      }
      auto owner = directory_.find(k);
      if (owner != directory_.end() && owner->second.node == self_) {
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
        store_.Install(k, CopyKind::kReplica, row);
        replicas_[k] = HeldReplica{.owner = m.src, .is_static = policy_->IsStaticReplica(k)};
        counters_.replicas_created.fetch_add(1, std::memory_order_relaxed);
      }
      row += store_.RowLength(k);
      NoteLocation(k, m.src);
      DrainQueue(k, &fx);
    }
  }
  Flush(fx);
  return status;
}

void Node::DrainQueue(Key key, Effects* fx) {
  auto it = incoming_.find(key);
  if (it == incoming_.end()) return;
  std::vector<Item> items = std::move(it->second);
  incoming_.erase(it);
  if (actions_paused_ && incoming_.empty()) {  // a worker may wait for quiescence
    for (WorkerId w = 0; w < workers_.size(); ++w)
      if (waiting_[w]) fx->wake.parkers.push_back(workers_[w]->parker_.get());
  }
  // Dispatch applies what the local copy can serve (everything on a main
  // copy; a replica serves local pulls and pushes) and forwards the rest.
  for (Item& item : items) Dispatch(key, std::move(item), /*via_home=*/false, fx);
}

}  // namespace augur

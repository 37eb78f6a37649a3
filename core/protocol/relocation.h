// Relocation: moving main copies between nodes, and placement decisions.
//
// A node that wants a key sends a localize request towards the main copy.
// The owner asks the Policy (PlaceKey): relocate (hand the row over and tell
// the home node, 3 messages in all) or replicate (Replication grants a
// replica). The receiver installs the row and applies the operations that
// queued while the key travelled, in arrival order; a queued localize from
// a third node chains the key straight on. The home's directory records
// owners that are not the home, with an ownership epoch (16-bit serial
// arithmetic) so a late owner update never overwrites a newer one.
//
// Owner updates wait for the old owner's next sync round (OnSyncRound),
// which sends each home one message per new owner for all the keys it
// handed over since the last round, unless the key goes to its home (then
// the update leaves before the hand-over, as it must) or
// NodeOptions::immediate_owner_updates. Until two rounds after the update
// left, the old owner sends what reaches it for such a key to the new owner
// (DeferredOwner, routing.h), as the home may still route requests for it
// here. At 8 nodes x 4 workers
// (kge, WordNet) this cut adaptive's frames by a fifth and its simulated
// epoch by 15% (docs/measurements/2026-12-04-owner-updates.md).
//
// Owns: the directory (at the home: owner when not here), the keys in
// transfer to this node with the requests queued for them, and the owner
// updates not yet sent.
// Locking: the Handle* methods take the engine lock themselves; every other
// method REQUIRES the engine lock held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"
#include "core/codec/message.h"
#include "core/protocol/effects.h"
#include "core/protocol/engine_context.h"
#include "core/protocol/key_request.h"
#include "core/store/flat_key_map.h"
#include "core/store/param_store.h"

namespace augur {

class IntentTracker;
class Quiesce;
class Replication;
class Routing;

class Relocation {
 public:
  // Directory entry at the home: the owner, and the ownership epoch (the
  // number of hand-overs).
  struct Owner {
    NodeId node;
    uint16_t epoch;
  };

  Relocation(EngineContext& cx, Routing& routing, Replication& replication, IntentTracker& intents,
             Quiesce& quiesce, bool immediate_owner_updates);
  Relocation(const Relocation&) = delete;
  Relocation& operator=(const Relocation&) = delete;

  Status HandleHandover(const Message& m);
  Status HandleOwnerUpdate(const Message& m);

  // REQUIRES (all below): engine lock held.
  // Asks the owner for key (a replica or the main copy); requests on it
  // queue here until it arrives.
  void RequestLocalize(Key key, Effects* fx);
  // At the owner: a localize request from requester.
  void PlaceKey(Key key, NodeId requester, Effects* fx);
  // Sends the main copy to `to` (op_id: the sync round it answers, or 0).
  void HandOver(Key key, NodeId to, uint64_t op_id, Effects* fx);
  // key arrived: dispatches the requests that queued for it.
  void DrainQueue(Key key, Effects* fx);
  // The requests queued for key on its way here; null if it is not.
  std::vector<KeyRequest>* InTransfer(Key key) {
    auto it = incoming_.find(key);
    return it == incoming_.end() ? nullptr : &it->second;
  }
  const std::vector<KeyRequest>* InTransfer(Key key) const {
    auto it = incoming_.find(key);
    return it == incoming_.end() ? nullptr : &it->second;
  }
  bool Incoming(Key key) const { return incoming_.count(key) > 0; }
  bool NothingIncoming() const { return incoming_.empty(); }
  // The directory entry of a key homed here (null: none, the key is here or
  // never moved).
  const Owner* DirectoryEntry(Key key) const {
    return directory_.Find(key);  // valid until the directory changes
  }
  // A hint: loads the bucket DirectoryEntry(key) will probe. Changes nothing.
  void PrefetchDirectoryEntry(Key key) const {
    if (directory_.size() > 0) directory_.PrefetchHashed(Mix64(key));
  }
  size_t entries() const { return directory_.size() + incoming_.size(); }
  // At every sync round: sends the owner updates HandOver deferred, one
  // message per home and new owner, and re-sends the bounced localize
  // requests (NoteBounced) that have waited a full round.
  void OnSyncRound(Effects* fx);
  // This node's own localize request for key came back here while the key
  // is not here: whoever sent it took this node for the owner (a directory
  // or pointer not yet told of a later hand-over). Queued, it would wait for
  // a key nobody sends; dropped, the key would never come. So the request
  // goes again, to the home, at the second sync round from now, when every
  // owner update sent before the bounce has reached it (each node flushes
  // its deferred updates every round), unless the key has arrived by then.
  void NoteBounced(Key key);
  // Where this node handed key over, while the home may not know yet: until
  // two sync rounds after the owner update left (null otherwise). Requests
  // for it go there, not to the home, whose directory may still name this
  // node.
  const NodeId* DeferredOwner(Key key) const {
    const HandedTo* h = handed_to_.Find(key);
    return h != nullptr && h->deferred ? &h->node : nullptr;
  }
  // Whether this node handed key over and has not had it back since. Two
  // sync rounds do not prove that the home has the owner update: a frame can
  // take longer (on a node whose protocol handling waits for a core, or a
  // slow link), and the home may still route requests for the key here
  // after the pointer above expired (routing.h: such a request goes back to
  // the home, behind the update on the same ordered channel, not into this
  // node's queue for the key).
  bool HandedAway(Key key) const { return handed_to_.Find(key) != nullptr; }
  // Where this node handed key over last, until it comes back (null: it did
  // not, or it is back). For reports.
  const NodeId* HandedOverTo(Key key) const {
    const HandedTo* h = handed_to_.Find(key);
    return h != nullptr ? &h->node : nullptr;
  }
  // Whether this node's localize request for key bounced and waits to be
  // sent again (NoteBounced). A scan, for reports.
  bool LocalizeBounced(Key key) const {
    for (const Bounced& b : bounced_)
      if (b.key == key) return true;
    return false;
  }

 private:
  EngineContext& cx_;
  Routing& routing_;
  Replication& replication_;
  IntentTracker& intents_;
  Quiesce& quiesce_;
  FlatKeyMap<Owner> directory_;                                // at home: owner when not here
  std::unordered_map<Key, std::vector<KeyRequest>> incoming_;  // requested, not arrived
  struct DeferredUpdate {                                      // to the key's home
    NodeId owner;
    Key key;
    uint16_t epoch;
  };
  std::vector<DeferredUpdate> deferred_updates_;  // in hand-over order
  // key -> where this node handed it last, from the hand-over until the key
  // comes back; `deferred` until two sync rounds after its owner update left
  // (DeferredOwner; the home usually knows by then).
  struct HandedTo {
    NodeId node;
    bool deferred;
  };
  FlatKeyMap<HandedTo> handed_to_;
  struct SentUpdate {  // an owner update sent, and the round it left in
    Key key;
    NodeId owner;
    uint64_t round;
  };
  std::vector<SentUpdate> sent_updates_;  // in sending order
  struct Bounced {
    Key key;
    uint64_t round;  // the sync round it bounced in
  };
  std::vector<Bounced> bounced_;  // in bounce order
  uint64_t round_ = 0;            // sync rounds so far
  const bool immediate_owner_updates_;
  // This node's localize request for key, to dest (flags: kViaHome or 0).
  void SendLocalize(NodeId dest, Key key, uint32_t flags, Effects* fx);
  // HandleHandover's scratch: the store batch that looks up where the main
  // copies are.
  ParamStore::BatchScratch batch_;
};

}  // namespace augur

// Routing: where each key of an operation or request goes.
//
// A key is applied where its main copy is (a replica also serves its own
// node's pulls and pushes); a node that lacks it queues the request if the
// key is on its way here (Relocation), and otherwise forwards it: the home
// node knows the owner (Relocation's directory), every other node sends to
// its location cache entry or to the home. Routing also starts a worker's
// remote operations (SlowPath) and handles the answers (HandleResponse).
//
// Owns: the location cache (last seen owner of keys homed elsewhere).
// Locking: SlowPath and the Handle* methods take the engine lock
// themselves; every other method REQUIRES the engine lock held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
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
class Relocation;
class Replication;

class Routing {
 public:
  Routing(EngineContext& cx, Relocation& relocation, Replication& replication,
          IntentTracker& intents, size_t location_cache_capacity);
  Routing(const Routing&) = delete;
  Routing& operator=(const Routing&) = delete;

  // Worker w's operation: keys[missing[i]] were not served by the local
  // store (NodePort::SlowPath).
  Ticket SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                  std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                  const float* in, std::span<float> out);
  // A pull, push, set, localize or sync request from a peer.
  Status HandleRequest(const Message& m);
  // A pull response or push/set ack. pull_values: a pull response's values,
  // in place in the received frame (copied once, straight into the worker's
  // buffer); empty otherwise.
  Status HandleResponse(const Message& m, std::span<const uint8_t> pull_values);

  // REQUIRES (all below): engine lock held.
  void Dispatch(Key key, KeyRequest item, bool via_home, Effects* fx) {
    Dispatch(key, std::move(item), via_home, cx_.HasMain(key), fx);
  }
  // The same, where the caller knows whether the main copy is here.
  void Dispatch(Key key, KeyRequest item, bool via_home, bool main_here, Effects* fx);
  void NoteLocation(Key key, NodeId node);  // key (homed elsewhere) was seen at node
  void ForgetLocation(Key key) { location_cache_.Erase(key); }
  // Where a request for a key not held here goes: the node this one handed it
  // to if the home has not heard of it yet (Relocation::DeferredOwner), else
  // its cached location, else home.
  NodeId RemoteDestination(Key key) const;
  // The location cache's entry for key (null: none). For reports.
  const NodeId* CachedLocation(Key key) const { return location_cache_.Find(key); }
  size_t entries() const { return location_cache_.size(); }

 private:
  // A request of this node's own that came back here.
  Status CheckReturning(const Message& m) const;
  void Apply(Key key, KeyRequest& item, Effects* fx);
  // Another node's pull or push: serves every key whose main copy is here
  // in one store batch (as Apply would, key by key) and leaves the indices
  // of the others in batch_.missing.
  void ServeMainCopies(const Message& m, Effects* fx);
  void Forward(NodeId dest, Key key, const KeyRequest& item, bool via_home, Effects* fx);

  EngineContext& cx_;
  Relocation& relocation_;
  Replication& replication_;
  IntentTracker& intents_;
  const size_t location_cache_capacity_;  // entries; cleared when full
  FlatKeyMap<NodeId> location_cache_;     // last seen owner elsewhere
  // HandleRequest's and ServeMainCopies' scratch (under the engine lock):
  // each key's offset in the request's values, the store batch's scratch,
  // the pulled values.
  std::vector<uint32_t> offsets_;
  ParamStore::BatchScratch batch_;
  std::vector<float> pulled_;
};

}  // namespace augur

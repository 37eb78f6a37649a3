// Policy: decides how each key is managed (REFERENCE §2). Pure: no I/O, no
// runtime; the same object answers identically on every runtime.
//
// The protocol engine asks three questions and carries out the answers:
//  - at a node whose workers signalled intent for a key it does not hold:
//    LocalizesOnIntent() — ask the key's owner for it?
//  - at the owner, when another node asks: Place() — move the main copy there
//    (relocate) or give it a replica?
//  - at the owner, when a replica holder synchronises: Upgrade() — hand it the
//    main copy now that nobody else wants the key?
// Static replicas (IsStaticReplica) are created at any node that touches the
// key and kept for the whole run (full replication, NuPS' hot keys).
// Thread-safety: const after construction; safe to share between nodes.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"

namespace augur {

// What the owner knows about a key when it decides.
struct KeyView {
  Key key = 0;
  bool owner_has_intent = false;  // a worker at the owner node has active intent
  uint32_t other_holders = 0;     // replica holders other than the requester
};

enum class Placement { kRelocate, kReplicate };

class Policy {
 public:
  virtual ~Policy() = default;
  virtual const char* name() const = 0;
  virtual bool LocalizesOnIntent() const = 0;
  virtual bool IsStaticReplica(Key key) const = 0;
  virtual Placement Place(const KeyView& view) const = 0;
  virtual bool Upgrade(const KeyView& view) const = 0;
};

// classic | replicate-all | relocate | nups | adaptive.
// `hot_keys`: the keys nups replicates (the top-K by access frequency).
Result<std::shared_ptr<const Policy>> MakePolicy(const std::string& name,
                                                 std::vector<Key> hot_keys = {});
const std::vector<std::string>& PolicyNames();

}  // namespace augur

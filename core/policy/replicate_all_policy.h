// ReplicateAllPolicy (REFERENCE §2.2): every key a node touches is replicated
// there for the whole run and synchronised periodically; the main copy stays
// at the home node. Memory and sync traffic grow with the keys touched.
#pragma once

#include "core/policy/policy.h"

namespace augur {

class ReplicateAllPolicy final : public Policy {
 public:
  const char* name() const override { return "replicate-all"; }
  bool LocalizesOnIntent() const override { return false; }
  bool IsStaticReplica(Key) const override { return true; }
  Placement Place(const KeyView&) const override { return Placement::kReplicate; }
  bool Upgrade(const KeyView&) const override { return false; }
};

}  // namespace augur

// AdaptivePolicy (AdaPS, REFERENCE §2.6): decides per key from intent alone,
// with no knobs. A node with intent asks the owner; if no other node (and none
// of the owner's workers) currently wants the key, the main copy is relocated,
// otherwise the requester gets a replica. Re-evaluated at every sync round: a
// replica whose holder is the only remaining interested node is upgraded to
// the main copy; replicas are dropped (after flushing) when local intent ends.
#pragma once

#include "core/policy/policy.h"

namespace augur {

class AdaptivePolicy final : public Policy {
 public:
  const char* name() const override { return "adaptive"; }
  bool LocalizesOnIntent() const override { return true; }
  bool IsStaticReplica(Key) const override { return false; }
  Placement Place(const KeyView& v) const override {
    return (v.owner_has_intent || v.other_holders > 0) ? Placement::kReplicate
                                                       : Placement::kRelocate;
  }
  bool Upgrade(const KeyView& v) const override {
    return !v.owner_has_intent && v.other_holders == 0;
  }
};

}  // namespace augur

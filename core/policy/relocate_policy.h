// RelocatePolicy (Lapse, REFERENCE §2.3): on intent, the main copy moves to
// the node about to use it; no replicas. Hot keys wanted by many nodes at
// once ping-pong between them — the weakness NuPS and AdaPS address.
#pragma once

#include "core/policy/policy.h"

namespace augur {

class RelocatePolicy final : public Policy {
 public:
  const char* name() const override { return "relocate"; }
  bool LocalizesOnIntent() const override { return true; }
  bool IsStaticReplica(Key) const override { return false; }
  Placement Place(const KeyView&) const override { return Placement::kRelocate; }
  bool Upgrade(const KeyView&) const override { return false; }
};

}  // namespace augur

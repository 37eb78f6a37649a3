// ClassicPolicy (REFERENCE §2.1): static partitioning; every key stays at its
// home node and non-local access is remote. Intent is accepted and ignored.
#pragma once

#include "core/policy/policy.h"

namespace augur {

class ClassicPolicy final : public Policy {
 public:
  const char* name() const override { return "classic"; }
  bool LocalizesOnIntent() const override { return false; }
  bool IsStaticReplica(Key) const override { return false; }
  Placement Place(const KeyView&) const override { return Placement::kReplicate; }  // never asked
  bool Upgrade(const KeyView&) const override { return false; }
};

}  // namespace augur

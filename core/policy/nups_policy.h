// NupsPolicy (NuPS, REFERENCE §2.4): the application names the hot keys (top-K
// by access frequency: --replicate K or a frequency file); they are replicated
// statically at every node that touches them, the long tail is relocated on
// intent. Needs tuning: a wrong K costs either sync traffic or ping-pong.
#pragma once

#include <unordered_set>
#include <vector>

#include "core/policy/policy.h"

namespace augur {

class NupsPolicy final : public Policy {
 public:
  explicit NupsPolicy(std::vector<Key> hot_keys) : hot_(hot_keys.begin(), hot_keys.end()) {}
  const char* name() const override { return "nups"; }
  bool LocalizesOnIntent() const override { return true; }
  bool IsStaticReplica(Key key) const override { return hot_.count(key) > 0; }
  Placement Place(const KeyView& v) const override {
    return IsStaticReplica(v.key) ? Placement::kReplicate : Placement::kRelocate;
  }
  bool Upgrade(const KeyView&) const override { return false; }

 private:
  std::unordered_set<Key> hot_;
};

}  // namespace augur

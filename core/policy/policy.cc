#include "core/policy/policy.h"

#include "core/policy/adaptive_policy.h"
#include "core/policy/classic_policy.h"
#include "core/policy/nups_policy.h"
#include "core/policy/relocate_policy.h"
#include "core/policy/replicate_all_policy.h"

namespace augur {

const std::vector<std::string>& PolicyNames() {
  static const std::vector<std::string> kNames{"classic", "replicate-all", "relocate", "nups",
                                               "adaptive"};
  return kNames;
}

Result<std::shared_ptr<const Policy>> MakePolicy(const std::string& name,
                                                 std::vector<Key> hot_keys) {
  if (name == "classic") return std::shared_ptr<const Policy>(std::make_shared<ClassicPolicy>());
  if (name == "replicate-all")
    return std::shared_ptr<const Policy>(std::make_shared<ReplicateAllPolicy>());
  if (name == "relocate") return std::shared_ptr<const Policy>(std::make_shared<RelocatePolicy>());
  if (name == "nups")
    return std::shared_ptr<const Policy>(std::make_shared<NupsPolicy>(std::move(hot_keys)));
  if (name == "adaptive") return std::shared_ptr<const Policy>(std::make_shared<AdaptivePolicy>());
  return Status::Error("unknown policy '" + name +
                       "' (expected classic|replicate-all|relocate|nups|adaptive)");
}

}  // namespace augur

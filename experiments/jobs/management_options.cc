#include "experiments/jobs/management_options.h"

#include "core/policy/policy.h"

namespace augur {

Status ConfigureManagement(const RunConfig& config, std::vector<Key> hot_keys, NodeOptions* o) {
  if (config.replicate > 0 && hot_keys.size() > config.replicate) hot_keys.resize(config.replicate);
  Result<std::shared_ptr<const Policy>> policy = MakePolicy(config.policy, std::move(hot_keys));
  if (!policy.ok()) return policy.status().WithContext("--policy");
  o->policy = *policy;
  o->sync_period_seconds = config.sync_period_seconds;
  o->sync_significance = config.sync_significance;
  o->sync_max_deferred = config.sync_max_deferred;
  o->sync_round_keys = config.sync_round_keys;
  o->replica_delta_bound.factor = config.ReplicaClip();
  o->act_immediately = config.act_immediately;
  o->immediate_owner_updates = config.immediate_owner_updates;
  o->stall_timeout_seconds = config.stall_timeout_seconds;
  return Status::Ok();
}

}  // namespace augur

#include "experiments/config/run_config.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/policy/policy.h"
#include "core/sampling/sampling.h"
#include "experiments/partition/work_split.h"

namespace augur {

Status RunConfig::Validate() {
  if (nodes == 0 || nodes > kMaxNodes)
    return Status::Error("--nodes must be in [1, " + std::to_string(kMaxNodes) + "]");
  if (workers == 0 || workers > kMaxWorkers)
    return Status::Error("--workers must be in [1, " + std::to_string(kMaxWorkers) + "]");
  if (uint64_t{nodes} * workers > kMaxTotalWorkers)
    return Status::Error("--nodes x --workers is " + std::to_string(uint64_t{nodes} * workers) +
                         ", above the " + std::to_string(kMaxTotalWorkers) +
                         " workers a run may have");
  if (epochs == 0) return Status::Error("--epochs must be at least 1");
  if (workload != "zipf" && workload != "kge" && workload != "wv" && workload != "mf")
    return Status::Error("--workload '" + workload + "' is unknown (expected zipf|kge|wv|mf)");
  if (Status s = CheckPartitionMethod(partition); !s.ok()) return s;
  if (partition == "block" && workload != "mf")
    return Status::Error("--partition block blocks a rating matrix: it needs --workload mf, not " +
                         workload);
  if (Result<SampleScheme> scheme = ParseSampleScheme(sampling); !scheme.ok())
    return scheme.status().WithContext("--sampling");
  if (reuse == 0) return Status::Error("--reuse must be at least 1");
  if (dim) zipf.dim = kge.dim = wv.dim = mf.rank = *dim;
  if (batch_size) zipf.batch_size = kge.batch_size = wv.batch_size = mf.batch_size = *batch_size;
  if (lookahead > static_cast<int64_t>(UINT32_MAX))
    return Status::Error("--lookahead must be at most " + std::to_string(UINT32_MAX));
  if (lookahead >= 0)
    zipf.lookahead = static_cast<uint32_t>(lookahead);
  else if (workload == "kge")
    zipf.lookahead = kKgeLookahead;
  if (negatives) {
    if (*negatives == 0) return Status::Error("--negatives must be at least 1");
    kge.negatives = wv.negatives = *negatives;
  }
  if (learning_rate) kge.learning_rate = wv.learning_rate = mf.learning_rate = *learning_rate;
  if (compute_seconds_per_sample) {
    kge.compute_seconds_per_sample = wv.compute_seconds_per_sample = mf.compute_seconds_per_sample =
        *compute_seconds_per_sample;
  }
  if (Status s = ValidateWorkloadOptions(kge, wv, mf); !s.ok()) return s;
  if (Result<std::shared_ptr<const Policy>> p = MakePolicy(policy); !p.ok())
    return p.status().WithContext("--policy");
  if (!(sync_period_seconds > 0)) return Status::Error("--sync-period must be > 0");
  if (!(stall_timeout_seconds >= 0 && std::isfinite(stall_timeout_seconds)))
    return Status::Error("--stall-timeout must be a finite duration >= 0 (0: off)");
  if (!(sync_significance >= 0 && sync_significance < 1))
    return Status::Error("--sync-significance must be in [0, 1)");
  if (!(replica_clip == -1 || replica_clip == 0 || (replica_clip >= 1 && replica_clip < 1e6)))
    return Status::Error("--replica-clip must be 0 (off) or a factor >= 1");
  Result<AccessPattern> p = ParseAccessPattern(pattern);
  if (!p.ok()) return p.status().WithContext("--pattern");
  if (zipf.keys == 0) return Status::Error("--keys must be at least 1");
  if (zipf.dim == 0 || zipf.dim > 1u << 16) return Status::Error("--dim must be in [1, 65536]");
  if (zipf.batch_size == 0) return Status::Error("--batch-size must be at least 1");
  if (zipf.batches_per_epoch == 0) return Status::Error("--batches must be at least 1");
  if (!(zipf.skew >= 0)) return Status::Error("--skew must be >= 0");
  if (!(zipf.compute_seconds_per_key >= 0)) return Status::Error("--compute-per-key must be >= 0");
  if (network.bandwidth_bytes_per_second <= 0) return Status::Error("--bandwidth must be > 0");
  if (network.latency_seconds < 0) return Status::Error("--latency must be >= 0");
  if (checkpoint_every > 0 && checkpoint_dir.empty())
    return Status::Error("--checkpoint-every needs --checkpoint-dir");
  if (checkpoint_every > epochs)
    return Status::Error("--checkpoint-every " + std::to_string(checkpoint_every) +
                         " is more than --epochs " + std::to_string(epochs) +
                         ": the run would write no checkpoint");
  if (std::error_code ec; !checkpoint_dir.empty() && std::filesystem::exists(checkpoint_dir, ec) &&
                          !std::filesystem::is_directory(checkpoint_dir, ec))
    return Status::Error("--checkpoint-dir " + checkpoint_dir + " is a file, not a directory");
  if (!checkpoint_dir.empty() && checkpoint_every == 0) checkpoint_every = 1;
  if ((!checkpoint_dir.empty() || !resume_dir.empty()) && backend == "single")
    return Status::Error("--checkpoint-dir/--resume: augur single has no checkpoints");
  zipf.pattern = *p;
  zipf.epochs = epochs;
  zipf.verify = verify;
  zipf.seed = seed;
  network.seed = DeriveSeed(seed, 0x4E7);
  return Status::Ok();
}

nlohmann::json RunConfig::ToJson() const {
  const bool cluster = backend != "single";
  nlohmann::json j = {
      {"backend", backend},          {"workload", workload}, {"nodes", nodes},
      {"workers_per_node", workers}, {"seed", seed},         {"epochs", epochs},
  };
  if (cluster) {
    j["policy"] = policy;
    j["sync_period_seconds"] = sync_period_seconds;
    j["sync_significance"] = sync_significance;
    j["sync_max_deferred"] = sync_max_deferred;
    j["sync_round_keys"] = sync_round_keys;
    j["replica_clip"] = ReplicaClip();
    j["replicate"] = replicate;
    j["act_immediately"] = act_immediately;
    j["immediate_owner_updates"] = immediate_owner_updates;
    j["stall_timeout_seconds"] = stall_timeout_seconds;
    j["lookahead"] = zipf.lookahead;
    if (first_epoch_extra_seconds_per_sample > 0)
      j["first_epoch_extra_seconds_per_sample"] = first_epoch_extra_seconds_per_sample;
    j["verify"] = verify;
    if (!evaluate) j["evaluate"] = false;
    j["checkpoint"] = {
        {"dir", checkpoint_dir}, {"every_epochs", checkpoint_every}, {"resume", resume_dir}};
  }
  if (backend == "loopback") {
    j["network"] = {{"bandwidth_bytes_per_second", network.bandwidth_bytes_per_second},
                    {"latency_seconds", network.latency_seconds},
                    {"jitter_seconds", network.jitter_seconds}};
  }
  if (workload == "zipf") {
    j["zipf"] = {{"keys", zipf.keys},
                 {"dim", zipf.dim},
                 {"batch_size", zipf.batch_size},
                 {"batches_per_epoch", zipf.batches_per_epoch},
                 {"pattern", pattern},
                 {"skew", zipf.skew},
                 {"compute_seconds_per_key", zipf.compute_seconds_per_key}};
    if (zipf.first_epoch_extra_seconds_per_key > 0)
      j["zipf"]["first_epoch_extra_seconds_per_key"] = zipf.first_epoch_extra_seconds_per_key;
    return j;
  }
  j["data_dir"] = data_dir;
  j["partition"] = partition;
  if (cluster && (workload == "kge" || workload == "wv"))
    j["sampling"] = {{"scheme", sampling}, {"reuse", reuse}, {"prefetch_lead", prefetch_lead}};
  if (workload == "kge") j["kge"] = augur::ToJson(kge);
  if (workload == "wv") j["wv"] = augur::ToJson(wv);
  if (workload == "mf") j["mf"] = augur::ToJson(mf);
  return j;
}

}  // namespace augur

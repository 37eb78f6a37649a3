// RunConfig: the one typed configuration of a run, shared by every backend.
//
// Filled from CLI flags (experiments/cli), validated once by Validate(), and
// written next to every result (ToJson). Backend-specific sections are plain
// members; a backend ignores the others, and ToJson writes only the sections
// that apply to the chosen backend and workload.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "backends/loopback/network_model.h"
#include "core/base/status.h"
#include "core/protocol/node_options.h"
#include "experiments/config/workload_options.h"
#include "experiments/zipf/zipf_workload.h"

namespace augur {

struct RunConfig {
  std::string backend = "loopback";  // loopback | tcp | sim
  std::string workload = "zipf";
  std::string policy = "adaptive";  // --policy (core/policy)
  uint32_t nodes = 4;
  uint32_t workers = 2;  // per node
  uint64_t seed = 1;
  std::string out_dir;  // empty: do not write result.json
  std::string pattern = "uniform";
  ZipfOptions zipf;  // epochs, verify and seed are mirrored into it by Validate()
  uint32_t epochs = 1;
  bool verify = false;
  // kge|wv|mf: evaluate the trained model (--no-eval: not; result.json then
  // has no quality, as for timing runs such as calibrate's).
  bool evaluate = true;
  // Parameter management (core/policy): --policy, --sync-period, --replicate, --act-immediately.
  double sync_period_seconds = 1e-3;
  double sync_significance = 0.0;  // --sync-significance (core NodeOptions)
  uint32_t sync_max_deferred = 8;  // --sync-max-deferred
  uint32_t sync_round_keys = 0;    // --sync-round-keys (0: all)
  double replica_clip = -1;        // --replica-clip; negative: the workload's (ReplicaClip())
  uint64_t replicate = 0;          // nups: hot keys replicated (0: the workload's hot set)
  bool act_immediately = false;
  bool immediate_owner_updates = false;  // --immediate-owner-updates
  // --stall-timeout: a worker parked on one operation (or a timer sync round
  // unanswered) this long, in the backend's time, fails the run
  // (core/protocol/stall_watchdog.h); 0: off.
  double stall_timeout_seconds = kDefaultStallTimeoutSeconds;
  // Loopback network model.
  NetworkModelOptions network;
  // Real workloads (kge, wv, mf; see workload_options.h).
  std::string data_dir;  // --data; empty: the cache (data_cache.h)
  std::string wordnet_dir = "/usr/share/wordnet";
  // auto | random | graph | block (work_split.h: auto is block for mf and
  // graph for kge and wv on several nodes, random otherwise).
  std::string partition = "auto";
  // Bounds of the cluster's shape (a typo must not exhaust the machine):
  // `augur sim --full` is 1,024 nodes x 4 workers.
  static constexpr uint32_t kMaxNodes = 4096;
  static constexpr uint32_t kMaxWorkers = 1024;
  static constexpr uint64_t kMaxTotalWorkers = 65536;
  // Negative sampling through the PS (kge, wv; core/sampling/sampling.h):
  // --sampling naive|prefetch|preloc|pool|local, --reuse (pool: uses per
  // pooled key), --prefetch-lead (prefetch: clocks ahead a sample is pulled).
  std::string sampling = "naive";
  uint32_t reuse = 4;
  uint32_t prefetch_lead = 2;
  KgeOptions kge;
  WvOptions wv;
  MfOptions mf;
  // Flags shared by all workloads; unset: each workload's default. A value
  // given is validated as given (an explicit 0 is an error, not "default").
  std::optional<uint32_t> dim;                       // --dim (zipf: floats per value; mf: rank)
  std::optional<uint32_t> batch_size;                // --batch-size
  std::optional<uint32_t> negatives;                 // --negatives
  std::optional<float> learning_rate;                // --lr
  std::optional<double> compute_seconds_per_sample;  // --compute-per-sample
  // --lookahead: clocks of intent signalled ahead. Negative: the workload's
  // default, kKgeLookahead for kge and ZipfOptions' otherwise.
  int64_t lookahead = -1;
  // kge's default --lookahead. Measured in the simulator at 8 x 4 with the
  // calibrated costs on WordNet and the Debian package graph
  // (docs/measurements/2026-12-04-kge-lookahead.md): acting on intent 2
  // batches ahead instead of 32 made adaptive 1.2-1.4x faster with local
  // sampling, its test MRR not worse on balance; relocating keys that far
  // ahead took them from the workers still using them, who then waited at
  // the epoch barriers. Charged the message cost measured in real
  // processes (since e3d32c4) it is 10% slower than 32 in the demo's setting
  // and its test MRR far higher (0.477 against 0.370): kept for the quality.
  // wv and mf gained nothing from it and keep 32.
  static constexpr uint32_t kKgeLookahead = 2;
  // The replica flush bound (core ReplicaDeltaBound; 0: off) --replica-clip
  // asks for, else the workload's default: kWvReplicaClip for wv (and the
  // others, where it applies to sgd pushes only, so not to kge's AdaGrad or
  // zipf's sums), kMfReplicaClip for mf. Measured in the simulator at 8 x 4
  // (docs/measurements/2026-12-04-mf-replica-clip.md): factor 2 kept small
  // wv vocabularies from diverging, and cost mf 1.1-1.8 points of test RMSE
  // against the baseline on three generated matrices, where 4 came within
  // 0.2 points of no clipping.
  double ReplicaClip() const {
    if (replica_clip >= 0) return replica_clip;
    return workload == "mf" ? kMfReplicaClip : kWvReplicaClip;
  }
  static constexpr double kWvReplicaClip = 2.0;
  static constexpr double kMfReplicaClip = 4.0;
  // kge|wv|mf: modelled compute per sample added in the first epoch (a
  // calibrated start-up cost: `augur sim --costs`); 0: none.
  double first_epoch_extra_seconds_per_sample = 0;
  // Checkpoints (experiments/checkpoint): every `checkpoint_every`
  // epochs into checkpoint_dir (0: never); resume_dir: restore and continue.
  std::string checkpoint_dir;
  uint32_t checkpoint_every = 0;
  std::string resume_dir;

  // Checks ranges and names; fills derived fields. Error names the flag.
  Status Validate();
  nlohmann::json ToJson() const;
};

}  // namespace augur

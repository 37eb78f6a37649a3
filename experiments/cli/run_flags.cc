#include "experiments/cli/run_flags.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/units.h"

namespace augur {

CLI::Validator AtLeastOne() {
  return CLI::Validator(
      [](std::string& text) {
        return text.find_first_not_of("0") == std::string::npos ? "must be at least 1"
                                                                : std::string();
      },
      ">=1");
}

void AddTrainingFlags(CLI::App& app, RunConfig* c) {
  app.add_option("--workers", c->workers, "Worker threads per node")->capture_default_str();
  app.add_option("--workload", c->workload, "Workload: zipf|kge|wv|mf")->capture_default_str();
  app.add_option("--epochs", c->epochs, "Training epochs")->capture_default_str();
  app.add_option("--seed", c->seed, "Run seed (every random choice derives from it)")
      ->check(CLI::Validator(
          // CLI11 would wrap "-3" around to 2^64 - 3.
          [](std::string& text) {
            return text.find('-') == std::string::npos ? std::string()
                                                       : "'" + text + "' must be >= 0";
          },
          "UINT"))
      ->capture_default_str();
  app.add_option("--out", c->out_dir, "Directory for result.json");
  app.add_option("--dim", c->dim,
                 "zipf: floats per value (16); kge: complex dimension, rows of 2×dim floats "
                 "(32); wv: embedding dimension (32); mf: rank (32)");
  app.add_option("--batch-size", c->batch_size,
                 "Mini-batch size: key accesses (zipf, 64), triples (kge, 128), sentences (wv, "
                 "16), ratings (mf, 256)");
  app.add_flag("--no-eval{false}", c->evaluate,
               "kge|wv|mf: skip the quality evaluation after training (result.json has no "
               "quality; for timing runs, as `augur calibrate`'s and compare's one-thread "
               "baseline run)");
}

void AddClusterFlags(CLI::App& app, RunConfig* c) {
  app.add_option("--nodes", c->nodes, "Number of nodes")->capture_default_str();
  app.add_option("--policy", c->policy,
                 "Parameter management: adaptive (intent-driven, no knobs) | classic (static "
                 "partitioning) | replicate-all | relocate (Lapse) | nups (hot keys replicated, "
                 "tail relocated)")
      ->capture_default_str();
  app.add_option("--replicate", c->replicate,
                 "nups: number of hot keys to replicate (0: the workload's own hot set)")
      ->capture_default_str();
  app.add_option_function<std::string>(
      "--sync-period",
      [c](const std::string& text) {
        Result<double> d = ParseDuration(text);
        if (!d.ok()) throw CLI::ValidationError("--sync-period", d.status().message());
        c->sync_period_seconds = *d;
      },
      "Replica synchronisation period (default 1ms)");
  app.add_option("--sync-significance", c->sync_significance,
                 "Replicas whose change since their last flush is at most this share of their "
                 "norm skip a sync round (0: all sync every round)")
      ->capture_default_str();
  app.add_option("--sync-round-keys", c->sync_round_keys,
                 "Replicas a timer sync round flushes, those changed most first; the rest wait "
                 "(at most --sync-max-deferred rounds). For links that sync traffic saturates "
                 "(0: all)")
      ->capture_default_str();
  app.add_option("--replica-clip", c->replica_clip,
                 "A replica flush larger than this factor x the node's running mean flush is "
                 "scaled down to it, after a warm-up of 256 flushes (NuPS's clipping; sgd "
                 "workloads only: wv, mf; not kge's adagrad; 0: off; default: " +
                     std::to_string(static_cast<int>(RunConfig::kWvReplicaClip)) + " for wv, " +
                     std::to_string(static_cast<int>(RunConfig::kMfReplicaClip)) + " for mf)");
  app.add_option(
         "--sync-max-deferred", c->sync_max_deferred,
         "Most sync rounds in a row a replica may skip (--sync-round-keys, --sync-significance)")
      ->capture_default_str();
  app.add_option_function<std::string>(
      "--stall-timeout",
      [c](const std::string& text) {
        Result<double> d = ParseDuration(text);
        if (!d.ok()) throw CLI::ValidationError("--stall-timeout", d.status().message());
        c->stall_timeout_seconds = *d;
      },
      "A worker waiting this long for one pull, push, set or sync round (not a barrier), "
      "or a timer sync round unanswered this long, stops the run with one line naming the "
      "node, the worker, the operation and where its first keys are; exit 1. In the "
      "backend's time: simulated seconds in sim, virtual ones on loopback, wall ones on "
      "tcp. 0: off (default 300s)");
  app.add_flag("--act-immediately", c->act_immediately,
               "Act on intent when it is signalled instead of timing it to the predicted window");
  app.add_flag("--immediate-owner-updates", c->immediate_owner_updates,
               "A node that hands a key over tells its home at once, in a message of its own, "
               "instead of at its next sync round with the others for that home");
  app.add_option("--lookahead", c->lookahead,
                 "Clocks (mini-batches) of intent signalled ahead, all workloads (default: " +
                     std::to_string(RunConfig::kKgeLookahead) + " for kge, " +
                     std::to_string(ZipfOptions{}.lookahead) + " otherwise)")
      ->check(CLI::Range(int64_t{0}, int64_t{UINT32_MAX}));
  app.add_option("--checkpoint-dir", c->checkpoint_dir,
                 "Write consistent checkpoints here (DIR/ckpt-EPOCH, DIR/LATEST)");
  app.add_option("--checkpoint-every", c->checkpoint_every,
                 "Checkpoint every E epochs (default 1 with --checkpoint-dir)")
      ->check(AtLeastOne());
  app.add_option("--resume", c->resume_dir,
                 "Restore a checkpoint (a --checkpoint-dir or one ckpt-E dir) and continue from "
                 "its epoch; any node count");
  app.add_flag("--verify", c->verify,
               "zipf: push integer updates and check every key's final value exactly (sum "
               "invariant)");
  app.add_option("--pattern", c->pattern, "zipf access pattern: uniform|hot|partitioned|mixed")
      ->capture_default_str();
  app.add_option("--keys", c->zipf.keys, "zipf: number of keys")->capture_default_str();
  app.add_option("--batches", c->zipf.batches_per_epoch, "zipf: mini-batches per worker per epoch")
      ->capture_default_str();
  app.add_option("--skew", c->zipf.skew, "zipf: Zipf exponent of hot accesses")
      ->capture_default_str();
  app.add_option("--compute-per-key", c->zipf.compute_seconds_per_key,
                 "zipf: modelled compute seconds per key access")
      ->capture_default_str();
}

void AddRunFlags(CLI::App& app, RunConfig* c) {
  AddTrainingFlags(app, c);
  AddClusterFlags(app, c);
}

void AddModelFlags(CLI::App& app, RunConfig* c) {
  app.add_option("--data", c->data_dir,
                 "Prepared data set (augur data ...); without it kge/wv prepare WordNet into "
                 "results/cache/ on first use and mf generates its matrix in memory");
  app.add_option("--wordnet", c->wordnet_dir, "WordNet database directory (for the cache)")
      ->capture_default_str();
  app.add_option(
         "--partition", c->partition,
         "How training data is split over workers: random | graph (clustered by a "
         "graph partition) | block (mf only: rows and columns blocked, DSGD sub-epochs) "
         "| auto (on several nodes block for mf, graph for kge and wv, random for them with local "
         "negative sampling; random otherwise)")
      ->capture_default_str();
  app.add_option("--negatives", c->negatives,
                 "kge: negatives per true triple in total, split between corrupted heads and "
                 "corrupted tails (10); wv: negatives per (center, context) pair (5)");
  app.add_option("--lr", c->learning_rate,
                 "Learning rate (kge AdaGrad 0.1, wv SGD 0.025, mf SGD 0.02)");
  app.add_option("--eval-triples", c->kge.eval_triples,
                 "kge: valid and test triples ranked at the end: a seeded sample of this many "
                 "of each split (0 = the whole split)")
      ->capture_default_str();
  app.add_option("--window", c->wv.window, "wv: maximal context window")->capture_default_str();
  app.add_option("--min-count", c->wv.min_count, "wv: minimal word count")->capture_default_str();
  app.add_option("--subsample", c->wv.subsample, "wv: frequent-word subsampling threshold")
      ->capture_default_str();
  app.add_option("--reg", c->mf.reg, "mf: L2 regularisation")->capture_default_str();
  app.add_option("--mf-rows", c->mf.gen_rows, "mf without --data: rows")->capture_default_str();
  app.add_option("--mf-cols", c->mf.gen_cols, "mf without --data: columns")->capture_default_str();
  app.add_option("--mf-nnz", c->mf.gen_nnz, "mf without --data: cells")->capture_default_str();
  app.add_option("--mf-skew", c->mf.gen_skew, "mf without --data: Zipf exponent")
      ->capture_default_str();
}

void AddClusterWorkloadFlags(CLI::App& app, RunConfig* c) {
  app.add_option("--sampling", c->sampling,
                 "kge/wv: how negatives are drawn through the PS sampling access. naive: the "
                 "exact distribution, a negative not held locally is a remote access; prefetch: "
                 "exact, drawn keys pulled --prefetch-lead clocks ahead (not waited for at use, "
                 "values that much stale); preloc: "
                 "exact, drawn keys made local ahead; pool: the marginal distribution, each "
                 "pooled key reused --reuse times (samples correlated); local: NOT the "
                 "distribution, only keys held on the node (no communication)")
      ->capture_default_str();
  app.add_option("--reuse", c->reuse, "--sampling pool: times each pooled key is used")
      ->capture_default_str();
  app.add_option("--prefetch-lead", c->prefetch_lead,
                 "--sampling prefetch: clocks (mini-batches) before its use a sample is pulled")
      ->capture_default_str();
  app.add_option("--compute-per-sample", c->compute_seconds_per_sample,
                 "Modelled compute seconds per example on virtual-time backends "
                 "(kge 2.5e-6, wv 1e-6, mf 1e-7)");
}

void AddWorkloadFlags(CLI::App& app, RunConfig* c) {
  AddModelFlags(app, c);
  AddClusterWorkloadFlags(app, c);
}

void AddSingleFlags(CLI::App& app, RunConfig* c) {
  AddTrainingFlags(app, c);
  AddModelFlags(app, c);
}

void AddNetworkModelFlags(CLI::App& app, RunFlagText* t) {
  app.add_option("--latency", t->latency, "Network model: one-way latency (e.g. 5us)")
      ->capture_default_str();
  app.add_option("--bandwidth", t->bandwidth, "Network model: per-node NIC bandwidth (e.g. 10Gbps)")
      ->capture_default_str();
  app.add_option("--jitter", t->jitter,
                 "Network model: random extra latency in [0, jitter) that reorders messages "
                 "across senders (seeded)")
      ->capture_default_str();
}

Status FinishRunConfig(const RunFlagText& t, RunConfig* c) {
  Result<double> latency = ParseDuration(t.latency);
  if (!latency.ok()) return latency.status().WithContext("--latency");
  Result<double> jitter = ParseDuration(t.jitter);
  if (!jitter.ok()) return jitter.status().WithContext("--jitter");
  Result<double> bandwidth = ParseBandwidth(t.bandwidth);
  if (!bandwidth.ok()) return bandwidth.status().WithContext("--bandwidth");
  c->network.latency_seconds = *latency;
  c->network.jitter_seconds = *jitter;
  c->network.bandwidth_bytes_per_second = *bandwidth;
  return c->Validate();
}

namespace {

// A flag and the workloads it means something to.
struct FlagScope {
  const char* flag;
  std::initializer_list<std::string_view> workloads;
};

const FlagScope kScopes[] = {
    {"--pattern", {"zipf"}},
    {"--keys", {"zipf"}},
    {"--batches", {"zipf"}},
    {"--skew", {"zipf"}},
    {"--compute-per-key", {"zipf"}},
    {"--verify", {"zipf"}},
    {"--data", {"kge", "wv", "mf"}},
    {"--partition", {"kge", "wv", "mf"}},
    {"--lr", {"kge", "wv", "mf"}},
    {"--compute-per-sample", {"kge", "wv", "mf"}},
    {"--no-eval", {"kge", "wv", "mf"}},
    {"--wordnet", {"kge", "wv"}},
    {"--negatives", {"kge", "wv"}},
    {"--sampling", {"kge", "wv"}},
    {"--reuse", {"kge", "wv"}},
    {"--prefetch-lead", {"kge", "wv"}},
    {"--eval-triples", {"kge"}},
    {"--window", {"wv"}},
    {"--min-count", {"wv"}},
    {"--subsample", {"wv"}},
    {"--replica-clip", {"wv", "mf"}},
    {"--reg", {"mf"}},
    {"--mf-rows", {"mf"}},
    {"--mf-cols", {"mf"}},
    {"--mf-nnz", {"mf"}},
    {"--mf-skew", {"mf"}},
};

bool Given(const CLI::App& app, const char* flag) {
  const CLI::Option* o = app.get_option_no_throw(flag);
  return o != nullptr && o->count() > 0;
}

// {"kge", "wv"} -> "kge and wv"
std::string WorkloadList(std::initializer_list<std::string_view> workloads) {
  std::string out;
  size_t i = 0;
  for (std::string_view w : workloads) {
    out += i == 0 ? "" : i + 1 == workloads.size() ? " and " : ", ";
    out += w;
    ++i;
  }
  return out;
}

}  // namespace

Status CheckFlagsApply(const CLI::App& app, const RunConfig& c) {
  for (const FlagScope& s : kScopes) {
    if (!Given(app, s.flag) ||
        std::find(s.workloads.begin(), s.workloads.end(), c.workload) != s.workloads.end())
      continue;
    return Status::Error(std::string(s.flag) + " does not apply to --workload " + c.workload +
                         " (it is for " + WorkloadList(s.workloads) + "): drop it");
  }
  for (const char* f : {"--mf-rows", "--mf-cols", "--mf-nnz", "--mf-skew"}) {
    if (Given(app, f) && !c.data_dir.empty())
      return Status::Error(std::string(f) +
                           " sizes the matrix mf generates without --data; with --data " +
                           c.data_dir + " it does not apply: drop one of them");
  }
  // The matrix mf generates: refused here under its own flags' names (the
  // generator's checks say --rows, --nnz, ... as for `augur data mf`, and
  // were met only when the run loaded its data: after compare started).
  if (c.workload == "mf" && c.data_dir.empty()) {
    const MfOptions& m = c.mf;
    if (m.gen_rows == 0 || m.gen_cols == 0 || m.gen_nnz == 0)
      return Status::Error("--mf-rows, --mf-cols and --mf-nnz must be at least 1");
    if (m.gen_rows >= (1u << 30) || m.gen_cols >= (1u << 30))
      return Status::Error("--mf-rows and --mf-cols must be below 2^30");
    if (static_cast<double>(m.gen_nnz) > 0.5 * m.gen_rows * static_cast<double>(m.gen_cols))
      return Status::Error("--mf-nnz " + std::to_string(m.gen_nnz) +
                           " must be at most half of --mf-rows x --mf-cols (" +
                           std::to_string(m.gen_rows) + " x " + std::to_string(m.gen_cols) + ")");
    if (!(m.gen_skew >= 0 && std::isfinite(m.gen_skew)))
      return Status::Error("--mf-skew must be a finite number >= 0");
  }
  if (Given(app, "--reuse") && c.sampling != "pool")
    return Status::Error("--reuse is for --sampling pool, not " + c.sampling + ": drop it");
  if (Given(app, "--prefetch-lead") && c.sampling != "prefetch")
    return Status::Error("--prefetch-lead is for --sampling prefetch, not " + c.sampling +
                         ": drop it");
  return Status::Ok();
}

}  // namespace augur

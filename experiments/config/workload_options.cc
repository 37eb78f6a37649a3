#include "experiments/config/workload_options.h"

#include <nlohmann/json.hpp>

namespace augur {

namespace {
constexpr uint32_t kMaxDim = 1u << 14;
bool Positive(float x) { return x > 0 && x < 1e6f; }
}  // namespace

Status ValidateWorkloadOptions(const KgeOptions& kge, const WvOptions& wv, const MfOptions& mf) {
  if (kge.dim == 0 || kge.dim > kMaxDim) return Status::Error("--dim must be in [1, 16384]");
  if (kge.batch_size == 0 || wv.batch_size == 0 || mf.batch_size == 0)
    return Status::Error("--batch-size must be at least 1");
  if (kge.negatives > 10000 || wv.negatives > 10000)
    return Status::Error("--negatives must be at most 10000");
  if (!Positive(kge.learning_rate) || !Positive(wv.learning_rate) || !Positive(mf.learning_rate))
    return Status::Error("--lr must be a number > 0 and below 1e6");
  if (!(kge.init_scale >= 0) || !(mf.init_scale >= 0))
    return Status::Error("initial scale must be >= 0");
  if (wv.dim == 0 || wv.dim > kMaxDim || mf.rank == 0 || mf.rank > kMaxDim)
    return Status::Error("--dim must be in [1, 16384]");
  if (wv.window == 0 || wv.window > 100) return Status::Error("--window must be in [1, 100]");
  if (!(wv.subsample >= 0)) return Status::Error("--subsample must be >= 0");
  if (!(wv.heldout_fraction >= 0 && wv.heldout_fraction < 1))
    return Status::Error("held-out fraction must be in [0, 1)");
  if (!(mf.reg >= 0)) return Status::Error("--reg must be >= 0");
  for (double c : {kge.compute_seconds_per_sample, wv.compute_seconds_per_sample,
                   mf.compute_seconds_per_sample})
    if (!(c >= 0)) return Status::Error("--compute-per-sample must be >= 0");
  return Status::Ok();
}

nlohmann::json ToJson(const KgeOptions& o) {
  return {{"dim", o.dim},
          {"negatives", o.negatives},
          {"batch_size", o.batch_size},
          {"learning_rate", o.learning_rate},
          {"optimizer", "adagrad"},
          {"init_scale", o.init_scale},
          {"eval_triples", o.eval_triples},
          {"compute_seconds_per_sample", o.compute_seconds_per_sample}};
}

nlohmann::json ToJson(const WvOptions& o) {
  return {{"dim", o.dim},
          {"negatives", o.negatives},
          {"window", o.window},
          {"batch_size", o.batch_size},
          {"learning_rate", o.learning_rate},
          {"optimizer", "sgd"},
          {"min_count", o.min_count},
          {"subsample", o.subsample},
          {"heldout_fraction", o.heldout_fraction},
          {"compute_seconds_per_sample", o.compute_seconds_per_sample}};
}

nlohmann::json ToJson(const MfOptions& o) {
  return {{"rank", o.rank},
          {"batch_size", o.batch_size},
          {"learning_rate", o.learning_rate},
          {"optimizer", "sgd"},
          {"reg", o.reg},
          {"init_scale", o.init_scale},
          {"gen_rows", o.gen_rows},
          {"gen_cols", o.gen_cols},
          {"gen_nnz", o.gen_nnz},
          {"gen_skew", o.gen_skew},
          {"compute_seconds_per_sample", o.compute_seconds_per_sample}};
}

}  // namespace augur

// KgeTask: the knowledge-graph embedding workload (REFERENCE §5): its data,
// key space, initial values, training step and quality, shared by the PS job
// (kge_job) and the single-node baseline (kge_hogwild).
//
// Model: ComplEx, rows of 2*dim floats; entities at keys [0, E), relations at
// [kRelationKeyBase, +R) (disjoint ValueLayout ranges). One example = one
// training triple with `negatives` corruptions (first half replace the head,
// the rest the tail, uniformly over entities), logistic loss, AdaGrad
// (learning rate `learning_rate`, state beside the value).
// Immutable after Load(); every method is safe to call concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>

#include "core/base/rng.h"
#include "core/base/status.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/optimizer.h"
#include "experiments/config/run_config.h"
#include "experiments/kge/complex_model.h"
#include "experiments/kge/kg_dataset.h"
#include "experiments/kge/kge_evaluator.h"
#include "experiments/partition/graph_partitioner.h"

namespace augur {

class KgeTask {
 public:
  static constexpr Key kRelationKeyBase = Key{1} << 40;

  // Reads --data (or the WordNet cache). Error names the file and line.
  static Result<std::unique_ptr<KgeTask>> Load(const RunConfig& config);
  KgeTask(KgDataset data, KgeOptions options, uint64_t seed);

  const KgDataset& data() const { return data_; }
  const KgeOptions& options() const { return options_; }
  uint32_t row_length() const { return 2 * options_.dim; }
  // The untrained model's training loss per triple, (1 + negatives) ln 2:
  // its rows start small, so every score is near 0 (DivergenceGuard's reference).
  double UntrainedLoss() const { return (1.0 + options_.negatives) * 0.6931471805599453; }
  static Key EntityKey(uint32_t e) { return e; }
  static Key RelationKey(uint32_t r) { return kRelationKeyBase + r; }

  ValueLayout Layout() const;
  OptimizerConfig Optimizer() const;
  // Deterministic initial value of a key (uniform in [-init_scale, init_scale]).
  void InitRow(Key key, std::span<float> row) const;
  // Train triples with their entity keys (relations are hot: left out).
  ItemKeys PartitionKeys() const;

  // The negative-sampling distribution, uniform over entities: the
  // single-node baseline draws from it directly, the PS job hands
  // NegativeKey to the parameter server's sampler (Worker::PullSample).
  static Key NegativeKey(Rng& rng, uint32_t num_entities) {
    return EntityKey(static_cast<uint32_t>(rng.Below(num_entities)));
  }
  void DrawNegatives(Rng& rng, uint32_t* out) const {
    for (uint32_t j = 0; j < options_.negatives; ++j)
      out[j] = static_cast<uint32_t>(NegativeKey(rng, data_.num_entities()));
  }

  // Adds the gradient of one example to grad(at, key) rows; returns its loss.
  // row(at, key) -> const float*, grad(at, key) -> float*, where `at` is the
  // key's place in the example (kHeadAt, kRelationAt, kTailAt, then
  // kNegativeAt + j for negs[j]), for a caller that found its rows by place;
  // negs has `negatives` ids. A key may fill several places (a negative
  // equal to the head): grad must return the same row for it each time.
  template <typename RowFn, typename GradFn>
  float AddExampleGradients(const Triple& t, const uint32_t* negs, RowFn&& row,
                            GradFn&& grad) const;
  static constexpr uint32_t kHeadAt = 0, kRelationAt = 1, kTailAt = 2, kNegativeAt = 3;

  // Filtered MRR / Hits@k on sampled valid and test triples.
  nlohmann::json Evaluate(const float* entities, const float* relations, uint32_t threads) const;

 private:
  KgDataset data_;
  KgeOptions options_;
  uint64_t seed_;
  KgeEvaluator evaluator_;
};

template <typename RowFn, typename GradFn>
float KgeTask::AddExampleGradients(const Triple& t, const uint32_t* negs, RowFn&& row,
                                   GradFn&& grad) const {
  const uint32_t d = options_.dim;
  const Key hk = EntityKey(t.head), rk = RelationKey(t.relation), tk = EntityKey(t.tail);
  const float* h = row(kHeadAt, hk);
  const float* r = row(kRelationAt, rk);
  const float* tl = row(kTailAt, tk);
  float* gh = grad(kHeadAt, hk);
  float* gr = grad(kRelationAt, rk);
  float* gt = grad(kTailAt, tk);
  float s = ComplEx::Score(h, r, tl, d);
  float loss = LogisticLoss(s, true);
  ComplEx::AddGradients(h, r, tl, d, LogisticGrad(s, true), gh, gr, gt);
  const uint32_t head_negs = options_.negatives / 2;
  for (uint32_t j = 0; j < options_.negatives; ++j) {
    const Key nk = EntityKey(negs[j]);
    const float* n = row(kNegativeAt + j, nk);
    float* gn = grad(kNegativeAt + j, nk);
    if (j < head_negs) {
      s = ComplEx::Score(n, r, tl, d);
      ComplEx::AddGradients(n, r, tl, d, LogisticGrad(s, false), gn, gr, gt);
    } else {
      s = ComplEx::Score(h, r, n, d);
      ComplEx::AddGradients(h, r, n, d, LogisticGrad(s, false), gh, gr, gn);
    }
    loss += LogisticLoss(s, false);
  }
  return loss;
}

}  // namespace augur

// WvTask: the word-vector workload (REFERENCE §5): word2vec skip-gram with
// negative sampling on the WordNet gloss corpus, shared by the PS job
// (wv_job) and the single-node baseline (wv_hogwild).
//
// Keys: input vectors at [0, V), output vectors at [kOutputKeyBase, +V), dim
// floats each. One example = one sentence: every kept position (frequent
// words subsampled as in word2vec) is a center; each context word within a
// window drawn in [1, window] gives one positive term and `negatives`
// negative terms drawn from unigram^0.75 (alias table). SGD with learning
// rate `learning_rate`. A seeded share of sentences is held out for the loss.
// Subsampling and windows are hash-derived from (seed, epoch, position), so
// the keys of a future batch are known ahead (intent) and the PS and
// single-node runs see the same stream.
// Immutable after Load(); every method is safe to call concurrently.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <vector>

#include "core/base/rng.h"
#include "core/base/status.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/optimizer.h"
#include "experiments/config/run_config.h"
#include "experiments/partition/graph_partitioner.h"
#include "experiments/wv/alias_sampler.h"
#include "experiments/wv/sgns_model.h"
#include "experiments/wv/text_corpus.h"

namespace augur {

struct QualityFloor;

class WvTask {
 public:
  static constexpr Key kOutputKeyBase = Key{1} << 40;

  static Result<std::unique_ptr<WvTask>> Load(const RunConfig& config);
  WvTask(TextCorpus corpus, WvOptions options, uint64_t seed);

  const TextCorpus& corpus() const { return corpus_; }
  const WvOptions& options() const { return options_; }
  uint32_t dim() const { return options_.dim; }
  uint32_t row_length() const { return options_.dim; }  // floats per row
  // The untrained model's training loss per term: output rows start at zero,
  // so every logistic term is ln 2 (DivergenceGuard's reference).
  double UntrainedLoss() const { return 0.6931471805599453; }
  static Key InputKey(uint32_t w) { return w; }
  static Key OutputKey(uint32_t w) { return kOutputKeyBase + w; }
  // Training sentences (indices into the corpus).
  const std::vector<uint32_t>& train_sentences() const { return train_; }
  uint64_t train_tokens() const { return train_tokens_; }

  ValueLayout Layout() const;
  OptimizerConfig Optimizer() const;  // SGD
  void InitRow(Key key, std::span<float> row) const;
  // Every word's input and output row as InitRow makes them: V x dim each.
  void InitTables(std::vector<float>* in, std::vector<float>* out) const;
  // Training sentences with their non-hot words (for --partition graph).
  ItemKeys PartitionKeys() const;

  // The kept positions of sentence s in `epoch` and each one's window.
  void KeptPositions(uint32_t s, uint32_t epoch, std::vector<uint32_t>* words,
                     std::vector<uint32_t>* windows) const;
  // The negative-sampling distribution, unigram^0.75: the single-node
  // baseline draws from it directly, the PS job hands it to the parameter
  // server's sampler (Worker::PrepareSample/PullSample).
  uint32_t DrawNegative(Rng& rng) const { return negatives_.Draw(rng); }
  // (center, context) pairs of sentence s in `epoch`: each needs `negatives`
  // negative words.
  uint64_t NumPairs(uint32_t s, uint32_t epoch) const;

  // Calls f(center, context, negs) for every (center, context) pair of
  // sentence s in `epoch`, negs holding `negatives` words, each taken from
  // next_negative() -> uint32_t (a draw, or the next sampled word).
  template <typename NegFn, typename F>
  void ForEachPair(uint32_t s, uint32_t epoch, NegFn&& next_negative, F&& f) const;

  // Trains on sentence s: in(word)/out(word) -> float* rows, updated in place;
  // negatives from next_negative() as in ForEachPair.
  // Returns the summed loss and adds the number of terms to *terms.
  template <typename NegFn, typename InFn, typename OutFn>
  double TrainSentence(uint32_t s, uint32_t epoch, NegFn&& next_negative, InFn&& in, OutFn&& out,
                       uint64_t* terms) const;

  // Held-out loss per term and nearest neighbours of probe words.
  // in/out: V rows of dim floats each.
  nlohmann::json Evaluate(const float* in, const float* out) const;
  // Evaluate of the initial rows (InitRow): the quality no trained model may
  // be worse than (jobs/quality_floor.h), by its held-out loss.
  QualityFloor Untrained() const;

 private:
  TextCorpus corpus_;
  WvOptions options_;
  uint64_t seed_;
  std::vector<uint32_t> train_, heldout_;
  uint64_t train_tokens_ = 0;
  std::vector<float> keep_prob_;
  AliasSampler negatives_;
};

template <typename NegFn, typename F>
void WvTask::ForEachPair(uint32_t s, uint32_t epoch, NegFn&& next_negative, F&& f) const {
  std::vector<uint32_t> words, windows, negs(options_.negatives);
  KeptPositions(s, epoch, &words, &windows);
  for (size_t i = 0; i < words.size(); ++i) {
    const size_t lo = i >= windows[i] ? i - windows[i] : 0;
    const size_t hi = std::min(words.size(), i + windows[i] + 1);
    for (size_t j = lo; j < hi; ++j) {
      if (j == i) continue;
      for (uint32_t& n : negs) n = next_negative();
      f(words[i], words[j], static_cast<const uint32_t*>(negs.data()));
    }
  }
}

template <typename NegFn, typename InFn, typename OutFn>
double WvTask::TrainSentence(uint32_t s, uint32_t epoch, NegFn&& next_negative, InFn&& in,
                             OutFn&& out, uint64_t* terms) const {
  const uint32_t d = options_.dim;
  const float lr = options_.learning_rate;
  std::vector<float> grad(d);
  double loss = 0;
  ForEachPair(s, epoch, next_negative,
              [&](uint32_t center_word, uint32_t context, const uint32_t* negs) {
                float* center = in(center_word);
                std::fill(grad.begin(), grad.end(), 0.0f);
                loss += SgnsTerm(center, out(context), d, true, lr, grad.data());
                for (uint32_t n = 0; n < options_.negatives; ++n)
                  loss += SgnsTerm(center, out(negs[n]), d, false, lr, grad.data());
                for (uint32_t k = 0; k < d; ++k) center[k] -= lr * grad[k];
                *terms += 1 + options_.negatives;
              });
  return loss;
}

}  // namespace augur

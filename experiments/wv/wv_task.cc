#include "experiments/wv/wv_task.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/base/check.h"
#include "core/base/huge_pages.h"
#include "experiments/data/data_cache.h"
#include "experiments/jobs/quality_floor.h"
#include "experiments/models/task_rows.h"

namespace augur {

namespace {

constexpr uint64_t kHeldOutTerms = 50000;  // cap on the held-out loss terms
constexpr double kHotWordShare = 0.001;    // top words left out of the partition graph
constexpr const char* kProbes[] = {"dog", "king",     "water", "music", "red",
                                   "run", "computer", "tree",  "money", "war"};

std::vector<double> UnigramPow(const TextCorpus& c) {
  std::vector<double> w(c.vocab_size());
  for (uint32_t i = 0; i < w.size(); ++i) w[i] = std::pow(static_cast<double>(c.counts[i]), 0.75);
  return w;
}

double Hash01(uint64_t seed, uint64_t a, uint64_t b) {
  return static_cast<double>(DeriveSeed(seed, a, b) >> 11) * 0x1.0p-53;
}

}  // namespace

Result<std::unique_ptr<WvTask>> WvTask::Load(const RunConfig& config) {
  Result<std::string> dir = ResolveTextDataDir(config.data_dir, config.wordnet_dir);
  if (!dir.ok()) return dir.status();
  Result<TextCorpus> corpus = ReadTextCorpus(*dir, config.wv.min_count);
  if (!corpus.ok()) return corpus.status();
  auto task = std::make_unique<WvTask>(std::move(*corpus), config.wv, config.seed);
  uint64_t pairs = 0;
  // Any pair will do: stop at the first sentence that has one.
  for (size_t i = 0; i < task->train_.size() && pairs == 0; ++i)
    pairs = task->NumPairs(task->train_[i], 0);
  if (pairs == 0)
    return Status::Error(*dir +
                         ": no (center, context) pair to train on: the training sentences (" +
                         std::to_string(task->train_tokens_) +
                         " tokens) keep fewer than two words each after frequent-word "
                         "subsampling (a corpus this small needs --subsample 0)");
  if (config.evaluate && task->heldout_.empty())
    return Status::Error(*dir + ": no held-out sentence (a " +
                         std::to_string(task->options_.heldout_fraction) + " share of " +
                         std::to_string(task->corpus_.num_sentences()) +
                         " sentences), so the held-out loss cannot be measured: a larger corpus, "
                         "or train with --no-eval");
  return task;
}

WvTask::WvTask(TextCorpus corpus, WvOptions options, uint64_t seed)
    : corpus_(std::move(corpus)), options_(options), seed_(seed), negatives_(UnigramPow(corpus_)) {
  for (uint32_t s = 0; s < corpus_.num_sentences(); ++s) {
    const bool held = Hash01(seed_, 0x4E1D, s) < options_.heldout_fraction;
    (held ? heldout_ : train_).push_back(s);
    if (!held) train_tokens_ += corpus_.sentence_end[s] - corpus_.SentenceBegin(s);
  }
  uint64_t total = 0;
  for (uint64_t c : corpus_.counts) total += c;
  keep_prob_.resize(corpus_.vocab_size(), 1.0f);
  if (options_.subsample > 0) {
    const double t = options_.subsample * static_cast<double>(total);
    for (uint32_t w = 0; w < keep_prob_.size(); ++w) {
      const double f = static_cast<double>(corpus_.counts[w]);
      keep_prob_[w] = static_cast<float>(std::min(1.0, (std::sqrt(f / t) + 1.0) * t / f));
    }
  }
}

ValueLayout WvTask::Layout() const {
  const uint32_t v = corpus_.vocab_size();
  return TwoRangeLayout("wv", dim(), v, kOutputKeyBase, v);
}

OptimizerConfig WvTask::Optimizer() const {
  return TaskOptimizer(OptimizerKind::kSgd, options_.learning_rate);
}

void WvTask::InitRow(Key key, std::span<float> row) const {
  if (key >= kOutputKeyBase) {  // word2vec: output vectors start at zero
    std::fill(row.begin(), row.end(), 0.0f);
    return;
  }
  InitUniformRow(seed_, key, 0.5 / dim(), row);
}

void WvTask::InitTables(std::vector<float>* in, std::vector<float>* out) const {
  const uint32_t v = corpus_.vocab_size(), d = dim();
  // On huge pages, as the store's rows (core/store/chunk_pool.h).
  AssignOnHugePages(in, size_t{v} * d, 0.0f);
  AssignOnHugePages(out, size_t{v} * d, 0.0f);
  for (uint32_t w = 0; w < v; ++w) {
    InitRow(InputKey(w), std::span<float>(in->data() + size_t{w} * d, d));
    InitRow(OutputKey(w), std::span<float>(out->data() + size_t{w} * d, d));
  }
}

QualityFloor WvTask::Untrained() const {
  std::vector<float> in, out;
  InitTables(&in, &out);
  return {"heldout_loss", Evaluate(in.data(), out.data())};
}

ItemKeys WvTask::PartitionKeys() const {
  ItemKeys items;
  items.num_keys = corpus_.vocab_size();
  const uint32_t hot = static_cast<uint32_t>(kHotWordShare * corpus_.vocab_size()) + 1;
  for (uint32_t s : train_) {
    for (uint64_t i = corpus_.SentenceBegin(s); i < corpus_.sentence_end[s]; ++i)
      if (corpus_.tokens[i] >= hot) items.keys.push_back(corpus_.tokens[i]);
    items.end.push_back(items.keys.size());
  }
  return items;
}

void WvTask::KeptPositions(uint32_t s, uint32_t epoch, std::vector<uint32_t>* words,
                           std::vector<uint32_t>* windows) const {
  words->clear();
  windows->clear();
  for (uint64_t i = corpus_.SentenceBegin(s); i < corpus_.sentence_end[s]; ++i) {
    const uint32_t w = corpus_.tokens[i];
    const uint64_t h = DeriveSeed(seed_, i, epoch);
    if (static_cast<double>(h >> 11) * 0x1.0p-53 >= keep_prob_[w]) continue;
    words->push_back(w);
    windows->push_back(1 + static_cast<uint32_t>((h & 0xFFFF) % options_.window));
  }
}

uint64_t WvTask::NumPairs(uint32_t s, uint32_t epoch) const {
  thread_local std::vector<uint32_t> words, windows;  // called per sentence: no allocation
  KeptPositions(s, epoch, &words, &windows);
  uint64_t pairs = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    const size_t lo = i >= windows[i] ? i - windows[i] : 0;
    const size_t hi = std::min(words.size(), i + windows[i] + 1);
    pairs += hi - lo - 1;
  }
  return pairs;
}

nlohmann::json WvTask::Evaluate(const float* in, const float* out) const {
  const uint32_t d = dim();
  Rng rng(DeriveSeed(seed_, 0xE7A1));
  double loss = 0;
  uint64_t terms = 0;
  for (uint32_t s : heldout_) {
    if (terms >= kHeldOutTerms) break;
    // Held-out terms use every position (no subsampling) in "epoch" 0.
    for (uint64_t i = corpus_.SentenceBegin(s); i < corpus_.sentence_end[s]; ++i) {
      for (uint64_t j = i > corpus_.SentenceBegin(s) ? i - 1 : i; j <= i + 1; ++j) {
        if (j == i || j >= corpus_.sentence_end[s]) continue;
        const float* center = in + size_t{corpus_.tokens[i]} * d;
        loss += SgnsLoss(center, out + size_t{corpus_.tokens[j]} * d, d, true);
        for (uint32_t n = 0; n < options_.negatives; ++n)
          loss += SgnsLoss(center, out + size_t{DrawNegative(rng)} * d, d, false);
        ++terms;
      }
    }
  }
  nlohmann::json q;
  q["heldout_loss"] = terms ? loss / static_cast<double>(terms) : 0.0;
  q["heldout_pairs"] = terms;
  using Table =
      Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
  const Table table(in, corpus_.vocab_size(), d);
  const Eigen::VectorXf norms = table.rowwise().norm().array().max(1e-12f);
  nlohmann::json neighbours = nlohmann::json::object();
  for (const char* probe : kProbes) {
    auto it = std::find(corpus_.words.begin(), corpus_.words.end(), probe);
    if (it == corpus_.words.end()) continue;
    const uint32_t p = static_cast<uint32_t>(it - corpus_.words.begin());
    Eigen::VectorXf cos = (table * table.row(p).transpose()).cwiseQuotient(norms) / norms[p];
    cos[p] = -2;
    std::vector<uint32_t> ids(corpus_.vocab_size());
    for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    const size_t k = std::min<size_t>(5, ids.size());
    std::partial_sort(ids.begin(), ids.begin() + k, ids.end(),
                      [&](uint32_t a, uint32_t b) { return cos[a] > cos[b]; });
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < k; ++i) list.push_back(corpus_.words[ids[i]]);
    neighbours[probe] = list;
  }
  q["neighbours"] = neighbours;
  return q;
}

}  // namespace augur

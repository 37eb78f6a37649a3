#include "experiments/kge/kge_evaluator.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/base/rng.h"
#include "experiments/kge/complex_model.h"

namespace augur {

namespace {

using Table =
    Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

// Filtered rank of `truth` given all scores and the known answers to filter.
double FilteredRank(const Eigen::VectorXf& scores, uint32_t truth,
                    const std::vector<uint32_t>* known) {
  const float s = scores[truth];
  uint64_t greater = 0, equal = 0;
  for (Eigen::Index i = 0; i < scores.size(); ++i) {
    greater += scores[i] > s;
    equal += scores[i] == s;
  }
  equal -= 1;  // the truth itself
  if (known != nullptr) {
    for (uint32_t k : *known) {
      if (k == truth) continue;
      greater -= scores[k] > s;
      equal -= scores[k] == s;
    }
  }
  return 1.0 + static_cast<double>(greater) + 0.5 * static_cast<double>(equal);
}

}  // namespace

nlohmann::json KgeQuality::ToJson(const std::string& prefix) const {
  // An empty split (e.g. imported with --split 0,T) ranks nothing: no
  // measures, rather than an MRR of 0 that reads as a useless model.
  if (queries == 0) return {{prefix + "queries", 0}};
  return {{prefix + "mrr", mrr},       {prefix + "mrr_stderr", mrr_stderr},
          {prefix + "hits1", hits1},   {prefix + "hits3", hits3},
          {prefix + "hits10", hits10}, {prefix + "queries", queries}};
}

KgeEvaluator::KgeEvaluator(const KgDataset& data)
    : num_entities_(data.num_entities()), num_relations_(data.num_relations()) {
  for (const auto* split : {&data.train, &data.valid, &data.test}) {
    for (const Triple& t : *split) {
      tails_[uint64_t{t.head} * num_relations_ + t.relation].push_back(t.tail);
      heads_[uint64_t{t.tail} * num_relations_ + t.relation].push_back(t.head);
    }
  }
}

KgeQuality KgeEvaluator::Evaluate(const float* entities, const float* relations, uint32_t dim,
                                  const std::vector<Triple>& triples, uint32_t threads) const {
  const uint32_t row = 2 * dim;
  const Table table(entities, num_entities_, row);
  threads = std::max<uint32_t>(1, std::min<uint32_t>(threads, triples.size() / 16 + 1));
  std::vector<KgeQuality> part(threads);
  std::vector<double> part_sq(threads, 0.0);  // sums of the squared reciprocal ranks
  auto run = [&](uint32_t id) {
    Eigen::VectorXf q(row), scores(num_entities_);
    KgeQuality& out = part[id];
    for (size_t i = id; i < triples.size(); i += threads) {
      const Triple& t = triples[i];
      const float* r = relations + size_t{t.relation} * row;
      for (int side = 0; side < 2; ++side) {
        const std::vector<uint32_t>* known = nullptr;
        uint32_t truth = 0;
        if (side == 0) {
          ComplEx::TailQuery(entities + size_t{t.head} * row, r, dim, q.data());
          auto it = tails_.find(uint64_t{t.head} * num_relations_ + t.relation);
          known = it == tails_.end() ? nullptr : &it->second;
          truth = t.tail;
        } else {
          ComplEx::HeadQuery(r, entities + size_t{t.tail} * row, dim, q.data());
          auto it = heads_.find(uint64_t{t.tail} * num_relations_ + t.relation);
          known = it == heads_.end() ? nullptr : &it->second;
          truth = t.head;
        }
        scores.noalias() = table * q;
        const double rank = FilteredRank(scores, truth, known);
        out.mrr += 1.0 / rank;
        part_sq[id] += 1.0 / (rank * rank);
        out.hits1 += rank <= 1.0;
        out.hits3 += rank <= 3.0;
        out.hits10 += rank <= 10.0;
        ++out.queries;
      }
    }
  };
  std::vector<std::thread> pool;
  for (uint32_t id = 1; id < threads; ++id) pool.emplace_back(run, id);
  run(0);
  for (std::thread& th : pool) th.join();
  KgeQuality q;
  double sum_sq = 0;
  for (uint32_t id = 0; id < threads; ++id) {
    const KgeQuality& p = part[id];
    sum_sq += part_sq[id];
    q.mrr += p.mrr;
    q.hits1 += p.hits1;
    q.hits3 += p.hits3;
    q.hits10 += p.hits10;
    q.queries += p.queries;
  }
  if (q.queries > 0) {
    const double n = static_cast<double>(q.queries);
    q.mrr /= n;
    q.mrr_stderr =
        q.queries > 1 ? std::sqrt(std::max(0.0, (sum_sq - n * q.mrr * q.mrr) / (n - 1.0)) / n) : 0;
    q.hits1 /= n;
    q.hits3 /= n;
    q.hits10 /= n;
  }
  return q;
}

std::vector<Triple> KgeEvaluator::Sample(const std::vector<Triple>& triples, uint64_t n,
                                         uint64_t seed) {
  std::vector<Triple> out = triples;
  if (n == 0 || n >= out.size()) return out;
  Rng rng(DeriveSeed(seed, 0xE7A1));
  for (size_t i = 0; i < n; ++i) std::swap(out[i], out[i + rng.Below(out.size() - i)]);
  out.resize(n);
  return out;
}

}  // namespace augur

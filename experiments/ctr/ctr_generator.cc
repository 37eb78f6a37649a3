#include "experiments/ctr/ctr_generator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/base/rng.h"

namespace augur {

namespace {

double Normal(Rng& rng) {  // Box-Muller
  const double u = std::max(rng.Uniform(), 1e-300);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * rng.Uniform());
}

// The planted weight of id `id` of feature f (seeded per id: no table needed).
double IdWeight(uint64_t seed, uint32_t f, uint32_t id) {
  Rng rng(DeriveSeed(seed, 0xC7A + f, id));
  return 0.6 * Normal(rng);
}

// Zipf draws over [0, n) by inverse CDF (binary search).
class ZipfTable {
 public:
  ZipfTable(uint32_t n, double skew) : cdf_(n) {
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i) cdf_[i] = sum += std::pow(i + 1.0, -skew);
    for (double& c : cdf_) c /= sum;
  }
  uint32_t Draw(Rng& rng) const {
    const double u = rng.Uniform();
    const auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
    return static_cast<uint32_t>(std::min<size_t>(it - cdf_.begin(), cdf_.size() - 1));
  }

 private:
  std::vector<double> cdf_;
};

// Area under the ROC curve of `score` for `label` (ties count half).
double Auc(const std::vector<double>& score, const std::vector<uint8_t>& label) {
  std::vector<size_t> order(score.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score[a] < score[b]; });
  double pos = 0, neg = 0, rank_sum = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j < order.size() && score[order[j]] == score[order[i]]) ++j;
    const double mid = (i + j + 1) / 2.0;  // 1-based mean rank of the tie group
    for (size_t k = i; k < j; ++k) {
      if (label[order[k]]) {
        rank_sum += mid;
        ++pos;
      }
    }
    i = j;
  }
  neg = static_cast<double>(score.size()) - pos;
  if (pos == 0 || neg == 0) return 0.5;
  return (rank_sum - pos * (pos + 1) / 2) / (pos * neg);
}

template <typename T>
Status WriteArray(const std::string& path, const std::vector<T>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()),
            static_cast<std::streamsize>(v.size() * sizeof(T)));
  if (!out) return Status::Error("cannot write " + path);
  return Status::Ok();
}

}  // namespace

Status ValidateCtrOptions(const CtrOptions& o) {
  if (o.rows < 10) return Status::Error("--rows must be at least 10");
  if (!(o.test_fraction > 0 && o.test_fraction < 1))
    return Status::Error("--test-fraction must be in (0, 1)");
  if (o.max_cardinality < 4 || o.max_cardinality > 1u << 26)
    return Status::Error("--max-cardinality must be in [4, 2^26]");
  if (!(o.skew >= 0 && o.skew <= 4)) return Status::Error("--skew must be in [0, 4]");
  return Status::Ok();
}

std::vector<uint32_t> CtrCardinalities(const CtrOptions& o) {
  std::vector<uint32_t> c(kCtrCategorical);
  for (uint32_t f = 0; f < kCtrCategorical; ++f) {
    const double x = 4 * std::pow(o.max_cardinality / 4.0, f / (kCtrCategorical - 1.0));
    c[f] = std::max<uint32_t>(4, static_cast<uint32_t>(std::llround(x)));
  }
  return c;
}

Status WriteCtrDataset(const CtrOptions& o, const std::string& dir) {
  if (Status s = ValidateCtrOptions(o); !s.ok()) return s;
  const std::vector<uint32_t> card = CtrCardinalities(o);
  std::vector<ZipfTable> zipf;
  for (uint32_t c : card) zipf.emplace_back(c, o.skew);
  Rng truth_rng(DeriveSeed(o.seed, 0x7A0));
  std::vector<double> w(kCtrDense);
  for (double& x : w) x = 0.4 * Normal(truth_rng);
  const double bias = -1.2;
  const uint64_t test_rows = std::max<uint64_t>(1, static_cast<uint64_t>(o.rows * o.test_fraction));
  const uint64_t train_rows = o.rows - test_rows;
  nlohmann::json meta = {{"format", "augur-ctr-1"},
                         {"dense", kCtrDense},
                         {"categorical", kCtrCategorical},
                         {"cardinalities", card},
                         {"seed", o.seed},
                         {"skew", o.skew},
                         {"max_cardinality", o.max_cardinality}};
  Rng rng(DeriveSeed(o.seed, 0xDA7A));
  for (const auto& [split, n] : {std::pair<std::string, uint64_t>{"train", train_rows},
                                 std::pair<std::string, uint64_t>{"test", test_rows}}) {
    std::vector<uint8_t> labels(n);
    std::vector<float> dense(n * kCtrDense);
    std::vector<uint32_t> cats(n * kCtrCategorical);
    std::vector<double> logits(n);
    uint64_t positives = 0;
    for (uint64_t r = 0; r < n; ++r) {
      double logit = bias;
      for (uint32_t d = 0; d < kCtrDense; ++d) {
        const float x = static_cast<float>(std::floor(std::exp(1.5 * Normal(rng))));
        dense[r * kCtrDense + d] = x;
        logit += w[d] * (std::log1p(x) - 0.7);
      }
      for (uint32_t f = 0; f < kCtrCategorical; ++f) {
        const uint32_t id = zipf[f].Draw(rng);
        cats[r * kCtrCategorical + f] = id;
        logit += IdWeight(o.seed, f, id) / std::sqrt(static_cast<double>(kCtrCategorical) / 4);
      }
      logits[r] = logit;
      labels[r] = rng.Uniform() < 1 / (1 + std::exp(-logit)) ? 1 : 0;
      positives += labels[r];
    }
    for (const auto& [suffix, s] :
         {std::pair<const char*, Status>{"labels.u8",
                                         WriteArray(dir + "/" + split + ".labels.u8", labels)},
          {"dense.f32", WriteArray(dir + "/" + split + ".dense.f32", dense)},
          {"cats.u32", WriteArray(dir + "/" + split + ".cats.u32", cats)}}) {
      (void)suffix;
      if (!s.ok()) return s;
    }
    meta[split] = {{"rows", n},
                   {"positive_rate", static_cast<double>(positives) / static_cast<double>(n)},
                   {"truth_auc", Auc(logits, labels)}};
  }
  std::ofstream out(dir + "/meta.json");
  out << meta.dump(2) << "\n";
  if (!out) return Status::Error("cannot write " + dir + "/meta.json");
  return Status::Ok();
}

}  // namespace augur

#include "experiments/zipf/zipf_workload.h"

#include <algorithm>
#include <cmath>

#include "core/base/check.h"
#include "core/protocol/home.h"

namespace augur {

namespace {
constexpr double kOwnRangeShare = 0.9;  // partitioned: share of accesses in the own range
constexpr double kHotShare = 0.3;       // mixed: share of accesses to the hot set
}  // namespace

Result<AccessPattern> ParseAccessPattern(const std::string& name) {
  if (name == "uniform") return AccessPattern::kUniform;
  if (name == "hot") return AccessPattern::kHot;
  if (name == "partitioned") return AccessPattern::kPartitioned;
  if (name == "mixed") return AccessPattern::kMixed;
  return Status::Error("unknown pattern '" + name + "' (expected uniform|hot|partitioned|mixed)");
}

const char* AccessPatternName(AccessPattern p) {
  switch (p) {
    case AccessPattern::kUniform:
      return "uniform";
    case AccessPattern::kHot:
      return "hot";
    case AccessPattern::kPartitioned:
      return "partitioned";
    case AccessPattern::kMixed:
      return "mixed";
  }
  return "?";
}

ZipfWorkload::ZipfWorkload(ZipfOptions options, uint32_t nodes, uint32_t workers_per_node)
    : options_(options), nodes_(nodes), workers_per_node_(workers_per_node) {
  AUGUR_CHECK(options_.keys > 0 && options_.dim > 0, "empty zipf workload");
  if (options_.pattern == AccessPattern::kHot)
    zipf_ = std::make_unique<ZipfSampler>(options_.keys, options_.skew);
  if (options_.pattern == AccessPattern::kMixed)
    hot_set_ =
        std::make_unique<ZipfSampler>(std::max<uint64_t>(1, options_.keys / 1000), options_.skew);
  if (options_.verify) ComputeExpectedSums();
}

uint64_t ZipfWorkload::TotalAccesses() const {
  return uint64_t{nodes_} * workers_per_node_ * options_.epochs * options_.batches_per_epoch *
         options_.batch_size;
}

std::vector<Key> ZipfWorkload::HotKeys(uint64_t count) const {
  // Logical id r is the r-th most frequent in the hot pattern and in the
  // mixed pattern's hot set.
  std::vector<Key> keys;
  for (uint64_t r = 0; r < std::min(count, options_.keys); ++r) keys.push_back(KeyOf(r));
  return keys;
}

uint32_t ZipfWorkload::GlobalWorker(const Worker& w) const {
  return w.node_id() * workers_per_node_ + w.id();
}

void ZipfWorkload::BatchKeys(uint32_t g, Clock c, std::vector<Key>* out) const {
  BatchKeysOf(uint64_t{nodes_} * workers_per_node_, g, c, out);
}

void ZipfWorkload::BatchKeysOf(uint64_t workers, uint32_t g, Clock c, std::vector<Key>* out) const {
  Rng rng(DeriveSeed(options_.seed, g, static_cast<uint64_t>(c)));
  const uint64_t n = options_.keys;
  const uint64_t range_begin = n * g / workers;
  const uint64_t range_size = std::max<uint64_t>(1, n * (g + 1) / workers - range_begin);
  auto own_range = [&] {
    return rng.Uniform() < kOwnRangeShare ? range_begin + rng.Below(range_size) : rng.Below(n);
  };
  out->resize(options_.batch_size);
  for (Key& key : *out) {
    uint64_t logical = 0;
    switch (options_.pattern) {
      case AccessPattern::kUniform:
        logical = rng.Below(n);
        break;
      case AccessPattern::kHot:
        logical = zipf_->Draw(rng);
        break;
      case AccessPattern::kPartitioned:
        logical = own_range();
        break;
      case AccessPattern::kMixed:
        logical = rng.Uniform() < kHotShare ? hot_set_->Draw(rng) : own_range();
        break;
    }
    key = KeyOf(logical);
  }
}

float ZipfWorkload::Update(uint32_t g, Clock c, uint32_t j) {
  return static_cast<float>(1 + DeriveSeed(g, static_cast<uint64_t>(c), j) % 3);
}

void ZipfWorkload::RunWorker(Worker& w, EpochLog* log, const EpochEnd& on_epoch_end) const {
  const uint32_t g = GlobalWorker(w);
  const uint32_t dim = options_.dim;
  // Worker clocks start at 0; the stream (keys, updates) continues at StartClock().
  const Clock start = StartClock();
  const Clock total = Clock{options_.epochs - std::min(options_.start_epoch, options_.epochs)} *
                      options_.batches_per_epoch;
  const bool records = w.node_id() == 0 && w.id() == 0 && log != nullptr;
  std::vector<Key> keys, ahead;
  std::vector<float> values(size_t{options_.batch_size} * dim), updates(values.size());
  auto signal = [&](Clock c) {
    if (options_.lookahead == 0 || c >= total) return;
    BatchKeys(g, start + c, &ahead);
    w.Intent(ahead, c, c + 1);
  };
  for (Clock c = 0; c < std::min<Clock>(options_.lookahead, total); ++c) signal(c);
  double epoch_start = w.Now();
  for (uint32_t e = options_.start_epoch; e < options_.epochs; ++e) {
    for (uint32_t b = 0; b < options_.batches_per_epoch; ++b) {
      const Clock c = w.clock();
      signal(c + options_.lookahead);
      BatchKeys(g, start + c, &keys);
      if (!w.Wait(w.Pull(keys, values)).ok()) return;  // cancelled: the node shuts down
      const double extra = e == 0 ? options_.first_epoch_extra_seconds_per_key : 0.0;
      w.Compute((options_.compute_seconds_per_key + extra) * keys.size());
      for (uint32_t j = 0; j < keys.size(); ++j) {
        float* u = &updates[size_t{j} * dim];
        if (options_.verify) {
          const float base = Update(g, start + c, j);
          for (uint32_t d = 0; d < dim; ++d) u[d] = base * static_cast<float>(1 + d % 2);
        } else {
          // A gradient-like step: shrink the value towards a target (real work on TCP).
          const float* v = &values[size_t{j} * dim];
          for (uint32_t d = 0; d < dim; ++d) u[d] = 0.01f * (0.1f - v[d]);
        }
      }
      w.Push(keys, updates);
      w.AdvanceClock();
    }
    if (!w.Barrier().ok()) return;
    if (records) {
      const double now = w.Now();
      log->epoch_seconds.push_back(now - epoch_start);
      epoch_start = now;
    }
    if (on_epoch_end && !on_epoch_end(w, e + 1)) return;
    if (records) epoch_start = w.Now();  // a checkpoint is not training time
  }
}

template <typename F>
void ZipfWorkload::ForEachBatch(Clock end, F&& f) const {
  const Clock start = StartClock();
  std::vector<Key> keys;
  for (int part = 0; part < 2; ++part) {
    const uint32_t nodes = part == 0 && options_.prior_nodes ? options_.prior_nodes : nodes_;
    const uint32_t per_node =
        part == 0 && options_.prior_workers ? options_.prior_workers : workers_per_node_;
    const uint64_t workers = uint64_t{nodes} * per_node;
    const Clock from = part == 0 ? 0 : start;
    const Clock to = part == 0 ? std::min(start, end) : end;
    for (uint32_t g = 0; g < workers; ++g) {
      for (Clock c = from; c < to; ++c) {
        BatchKeysOf(workers, g, c, &keys);
        f(g, c, keys);
      }
    }
  }
}

std::vector<Key> ZipfWorkload::KeysAccessedBefore(Clock end) const {
  std::vector<Key> all;
  ForEachBatch(end, [&](uint32_t, Clock, const std::vector<Key>& keys) {
    all.insert(all.end(), keys.begin(), keys.end());
  });
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

void ZipfWorkload::ComputeExpectedSums() {
  const Clock total = Clock{options_.epochs} * options_.batches_per_epoch;
  ForEachBatch(total, [&](uint32_t g, Clock c, const std::vector<Key>& keys) {
    for (uint32_t j = 0; j < keys.size(); ++j)
      expected_[keys[j]] += static_cast<uint64_t>(Update(g, c, j));
  });
}

uint64_t ZipfWorkload::VerifyNode(Worker& w, std::string* detail) const {
  AUGUR_CHECK(options_.verify, "VerifyNode needs verify mode");
  std::vector<Key> mine;
  for (const auto& [key, sum] : expected_)
    if (HomeNode(key, w.num_nodes()) == w.node_id()) mine.push_back(key);
  std::sort(mine.begin(), mine.end());
  const uint32_t dim = options_.dim;
  uint64_t bad = 0;
  constexpr size_t kChunk = 1024;
  std::vector<float> values;
  for (size_t at = 0; at < mine.size(); at += kChunk) {
    std::span<const Key> chunk(mine.data() + at, std::min(kChunk, mine.size() - at));
    values.assign(chunk.size() * dim, 0);
    w.Wait(w.Pull(chunk, values));
    for (size_t i = 0; i < chunk.size(); ++i) {
      const double want0 = static_cast<double>(expected_.at(chunk[i]));
      for (uint32_t d = 0; d < dim; ++d) {
        const double want = want0 * (1 + d % 2);
        if (values[i * dim + d] != static_cast<float>(want)) {
          if (bad == 0 && detail != nullptr) {
            *detail = "key " + std::to_string(chunk[i]) + " element " + std::to_string(d) +
                      ": got " + std::to_string(values[i * dim + d]) + ", expected " +
                      std::to_string(want);
          }
          ++bad;
          break;
        }
      }
    }
  }
  return bad;
}

}  // namespace augur

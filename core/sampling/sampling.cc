#include "core/sampling/sampling.h"

#include <algorithm>

#include "core/base/check.h"
#include "core/base/value_layout.h"
#include "core/store/param_store.h"

namespace augur {

namespace {
struct SchemeInfo {
  SampleScheme scheme;
  const char* name;
  const char* fidelity;  // for reports: how far its keys follow the distribution
};
constexpr SchemeInfo kSchemes[] = {
    {SampleScheme::kNaive, "naive",
     "exact distribution; a negative not held locally is a remote access"},
    {SampleScheme::kPrefetch, "prefetch",
     "exact distribution; drawn keys pulled --prefetch-lead clocks ahead (values that "
     "much stale), so a remote one is not waited for at use"},
    {SampleScheme::kPreloc, "preloc",
     "exact distribution; drawn keys made local ahead through intent"},
    {SampleScheme::kPool, "pool",
     "marginal distribution preserved, samples correlated (each pooled key reused)"},
    {SampleScheme::kLocal, "local",
     "NOT the application's distribution: only keys held on the node are drawn "
     "(no communication); judge it by the quality line"},
};

const SchemeInfo& Info(SampleScheme s) {
  for (const SchemeInfo& i : kSchemes)
    if (i.scheme == s) return i;
  AUGUR_CHECK(false, "unknown sampling scheme %d", static_cast<int>(s));
  return kSchemes[0];
}
}  // namespace

Result<SampleScheme> ParseSampleScheme(const std::string& name) {
  for (const SchemeInfo& i : kSchemes)
    if (name == i.name) return i.scheme;
  return Status::Error("unknown sampling scheme '" + name +
                       "' (expected naive|prefetch|preloc|pool|local)");
}

const char* SampleSchemeName(SampleScheme s) { return Info(s).name; }

const char* SampleSchemeFidelity(SampleScheme s) { return Info(s).fidelity; }

SampleHandle WorkerSampler::Prepare(uint32_t k, Clock start, Clock end) {
  AUGUR_CHECK(options_.draw != nullptr, "sampling needs the application's distribution");
  Prepared p;
  p.k = k;
  p.start = start;
  p.end = end;
  if (options_.scheme == SampleScheme::kPrefetch || options_.scheme == SampleScheme::kPreloc) {
    p.keys.resize(k);
    for (Key& key : p.keys) key = Draw();
    if (options_.scheme == SampleScheme::kPreloc) access_.Intent(p.keys, start, end);
  } else if (options_.scheme == SampleScheme::kPool) {
    TakeFromPool(k, &p.keys);
    access_.Intent(p.keys, start, end);
  }
  const uint64_t id = next_id_++;
  prepared_.emplace(id, std::move(p));
  StartDueFetches();
  return SampleHandle{id};
}

void WorkerSampler::StartDueFetches() {
  if (options_.scheme != SampleScheme::kPrefetch) return;
  // In preparation order; a sample already pulled started its own fetch.
  for (; next_fetch_ < next_id_; ++next_fetch_) {
    auto it = prepared_.find(next_fetch_);
    if (it == prepared_.end()) continue;
    if (it->second.start > access_.clock() + options_.prefetch_lead) break;
    StartFetch(it->second);
  }
}

void WorkerSampler::StartFetch(Prepared& p) {
  if (p.fetch_started) return;
  p.fetch_started = true;
  // With direct access the caller uses the rows in place (one node: every
  // key is here); nothing to read ahead.
  if (locality_.one_node) return;
  fetch_index_.Clear();
  p.fetched_row.resize(p.keys.size());
  for (size_t i = 0; i < p.keys.size(); ++i) {
    const auto [row, added] =
        fetch_index_.Insert(p.keys[i], static_cast<uint32_t>(p.fetch_keys.size()));
    if (added) p.fetch_keys.push_back(p.keys[i]);
    p.fetched_row[i] = *row;
  }
  // Every distinct key, the ones held here too: a key held here now may
  // have left by the time it is used, and then its pull would wait.
  p.fetched.resize(TotalLength(p.fetch_keys));
  p.fetch = access_.Pull(p.fetch_keys, p.fetched).id;
}

void WorkerSampler::FinishFetch(Prepared& p, std::vector<float>* values_out) {
  // A cancelled wait returns at once: the node is shutting down, the values
  // are undefined and the job stops (Worker::cancelled).
  if (p.fetch != 0) (void)access_.Wait(Ticket{p.fetch});
  if (values_out == nullptr) return;
  values_out->resize(TotalLength(p.keys));
  // fetch_keys[r]'s row starts at the running sum of the lengths before it.
  std::vector<size_t> fetch_at(p.fetch_keys.size() + 1, 0);
  for (size_t r = 0; r < p.fetch_keys.size(); ++r)
    fetch_at[r + 1] = fetch_at[r] + TotalLength(std::span<const Key>(&p.fetch_keys[r], 1));
  size_t out = 0;
  for (size_t i = 0; i < p.keys.size(); ++i) {
    const uint32_t r = p.fetched_row[i];
    const size_t len = fetch_at[r + 1] - fetch_at[r];
    std::copy_n(p.fetched.begin() + static_cast<std::ptrdiff_t>(fetch_at[r]), len,
                values_out->begin() + static_cast<std::ptrdiff_t>(out));
    out += len;
  }
}

void WorkerSampler::TakeFromPool(uint32_t k, std::vector<Key>* keys) {
  // The pool holds at least k entries; round-robin over it, an exhausted
  // entry is replaced by a fresh draw. Keys are taken here, at prepare time,
  // so the intent signalled for them covers every use, reused or fresh.
  while (pool_.size() < k) pool_.push_back(PoolEntry{Draw(), options_.reuse});
  keys->resize(k);
  for (Key& key : *keys) {
    PoolEntry& e = pool_[pool_next_++ % pool_.size()];
    if (e.uses_left == 0) e = PoolEntry{Draw(), options_.reuse};
    key = e.key;
    --e.uses_left;
  }
}

size_t WorkerSampler::TotalLength(std::span<const Key> keys) const {
  size_t n = 0;
  for (Key k : keys) n += locality_.layout.Length(k);
  return n;
}

void WorkerSampler::DrawLocal(std::span<Key> out) {
  if (locality_.one_node) {  // every key is held here
    for (Key& key : out) key = Draw();
    return;
  }
  // The draws of one key after another, made in blocks of as many draws as
  // keys are still missing: a block never holds a draw the sequence would
  // not make, so the keys are those of drawing and checking one at a time.
  // Whether a draw is held comes from the store's bitmap of the layout's
  // dense ranges (no lock); the draws outside them are looked up in one
  // store batch per block.
  uint32_t tries = 0;
  for (size_t j = 0; j < out.size();) {
    local_drawn_.resize(out.size() - j);
    local_held_.resize(local_drawn_.size());
    unknown_keys_.clear();
    unknown_at_.clear();
    for (uint32_t i = 0; i < local_drawn_.size(); ++i) {
      local_drawn_[i] = Draw();
      const HeldBitmap::Held h = locality_.store.HeldNow(local_drawn_[i]);
      local_held_[i] = h == HeldBitmap::Held::kYes;
      if (h == HeldBitmap::Held::kUnknown) {
        unknown_keys_.push_back(local_drawn_[i]);
        unknown_at_.push_back(i);
      }
    }
    if (!unknown_keys_.empty()) {
      locality_.store.HeldBatch(unknown_keys_, /*main_only=*/false, &store_scratch_);
      for (size_t u = 0; u < unknown_at_.size(); ++u)
        local_held_[unknown_at_[u]] = store_scratch_.found[u];
    }
    for (size_t i = 0; i < local_drawn_.size(); ++i) {
      if (local_held_[i] != 0) {
        last_local_ = local_drawn_[i];
        out[j++] = local_drawn_[i];
        tries = 0;
      } else if (++tries == kLocalTries) {
        out[j++] = last_local_.value_or(local_drawn_[i]);
        tries = 0;
      }
    }
  }
}

void WorkerSampler::Pull(SampleHandle h, std::vector<Key>* keys_out,
                         std::vector<float>* values_out) {
  auto it = prepared_.find(h.id);
  AUGUR_CHECK(it != prepared_.end(), "unknown or already used sample handle %llu",
              static_cast<unsigned long long>(h.id));
  Prepared p = std::move(it->second);  // the fetch buffer's heap block stays where it is
  prepared_.erase(it);
  keys_out->resize(p.k);
  switch (options_.scheme) {
    case SampleScheme::kNaive:
      for (Key& key : *keys_out) key = Draw();
      break;
    case SampleScheme::kPrefetch:
      StartFetch(p);  // if it was not due yet: pulled now, waited for below
      StartDueFetches();
      FinishFetch(p, values_out);
      *keys_out = std::move(p.keys);
      return;  // FinishFetch filled values_out
    case SampleScheme::kPreloc:
    case SampleScheme::kPool:
      *keys_out = std::move(p.keys);  // taken at prepare time
      break;
    case SampleScheme::kLocal:
      DrawLocal(*keys_out);
      break;
  }
  if (values_out == nullptr) return;  // the caller accesses the keys itself
  values_out->resize(TotalLength(*keys_out));
  (void)access_.Wait(access_.Pull(*keys_out, *values_out));
}

}  // namespace augur

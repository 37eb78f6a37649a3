#include "core/sampling/sampling.h"

#include "core/api/worker.h"
#include "core/base/check.h"
#include "core/protocol/node.h"

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
  return Status::Error("unknown sampling scheme '" + name + "' (expected naive|preloc|pool|local)");
}

const char* SampleSchemeName(SampleScheme s) { return Info(s).name; }

const char* SampleSchemeFidelity(SampleScheme s) { return Info(s).fidelity; }

SampleHandle WorkerSampler::Prepare(Worker& w, uint32_t k, Clock start, Clock end) {
  AUGUR_CHECK(options_.draw != nullptr, "sampling needs the application's distribution");
  Prepared p{k, start, end, {}};
  if (options_.scheme == SampleScheme::kPreloc) {
    p.keys.resize(k);
    for (Key& key : p.keys) key = options_.draw(rng_);
    w.Intent(p.keys, start, end);
  } else if (options_.scheme == SampleScheme::kPool) {
    TakeFromPool(k, &p.keys);
    w.Intent(p.keys, start, end);
  }
  const uint64_t id = next_id_++;
  prepared_.emplace(id, std::move(p));
  return SampleHandle{id};
}

void WorkerSampler::TakeFromPool(uint32_t k, std::vector<Key>* keys) {
  // The pool holds at least k entries; round-robin over it, an exhausted
  // entry is replaced by a fresh draw. Keys are taken here, at prepare time,
  // so the intent signalled for them covers every use, reused or fresh.
  while (pool_.size() < k) pool_.push_back(PoolEntry{options_.draw(rng_), options_.reuse});
  keys->resize(k);
  for (Key& key : *keys) {
    PoolEntry& e = pool_[pool_next_++ % pool_.size()];
    if (e.uses_left == 0) e = PoolEntry{options_.draw(rng_), options_.reuse};
    key = e.key;
    --e.uses_left;
  }
}

Key WorkerSampler::DrawLocal(Worker& w) {
  constexpr int kTries = 64;
  Key key = options_.draw(rng_);
  for (int i = 1; i < kTries && !w.IsHeldLocally(key); ++i) key = options_.draw(rng_);
  return key;
}

void WorkerSampler::Pull(Worker& w, SampleHandle h, std::vector<Key>* keys_out,
                         std::vector<float>* values_out) {
  auto it = prepared_.find(h.id);
  AUGUR_CHECK(it != prepared_.end(), "unknown or already used sample handle %llu",
              static_cast<unsigned long long>(h.id));
  Prepared p = std::move(it->second);
  prepared_.erase(it);
  keys_out->resize(p.k);
  switch (options_.scheme) {
    case SampleScheme::kNaive:
      for (Key& key : *keys_out) key = options_.draw(rng_);
      break;
    case SampleScheme::kPreloc:
    case SampleScheme::kPool:
      *keys_out = std::move(p.keys);  // taken at prepare time
      break;
    case SampleScheme::kLocal:
      for (Key& key : *keys_out) key = DrawLocal(w);
      break;
  }
  if (values_out == nullptr) return;  // the caller accesses the keys itself
  values_out->resize(w.TotalLength(*keys_out));
  w.Wait(w.Pull(*keys_out, *values_out));
}

}  // namespace augur

// Sampling access (REFERENCE §2.5): PrepareSample(K, start, end), then
// PullSample(handle) returns K keys drawn from the application's distribution
// together with their values.
//
// Schemes, and whether the returned keys follow the application's distribution:
//   naive   draw at pull time, ordinary pull (remote as needed)     exact
//   preloc  draw at prepare time and signal intent for the drawn
//           keys, so they are local by the time they are pulled      exact
//   pool    a pool of drawn keys, each returned `reuse` times
//           before a fresh draw replaces it; the keys are taken
//           from the pool at prepare time and intent is signalled
//           for them, so they are local at pull time and a reused
//           key held here costs no new transfer                     marginals exact, samples
//           correlated
//   local   draw, rejecting keys not held locally (bounded tries)    NOT exact: biased towards
//   local keys
// Augur keeps the pool per worker (not per node): no lock on the sampling path.
// Thread-safety: a WorkerSampler belongs to one worker.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/rng.h"
#include "core/base/status.h"
#include "core/base/types.h"

namespace augur {

class Worker;

enum class SampleScheme { kNaive, kPreloc, kPool, kLocal };
Result<SampleScheme> ParseSampleScheme(const std::string& name);
const char* SampleSchemeName(SampleScheme s);
// One line for reports: how far the scheme's keys follow the distribution.
const char* SampleSchemeFidelity(SampleScheme s);

struct SamplingOptions {
  SampleScheme scheme = SampleScheme::kNaive;
  uint32_t reuse = 4;  // pool: times each pooled key is returned
  // The application's distribution; must be deterministic given the Rng.
  std::function<Key(Rng&)> draw;
};

struct SampleHandle {
  uint64_t id = 0;
};

class WorkerSampler {
 public:
  WorkerSampler(SamplingOptions options, uint64_t seed)
      : options_(std::move(options)), rng_(seed) {}

  // REQUIRES: options.draw is set.
  SampleHandle Prepare(Worker& w, uint32_t k, Clock start, Clock end);
  // Fills keys_out (K keys) and values_out (their values) and waits for them;
  // values_out null: the keys only (the caller accesses them itself).
  void Pull(Worker& w, SampleHandle h, std::vector<Key>* keys_out, std::vector<float>* values_out);

 private:
  struct Prepared {
    uint32_t k;
    Clock start;
    Clock end;
    std::vector<Key> keys;  // preloc, pool: chosen at prepare time
  };
  struct PoolEntry {
    Key key;
    uint32_t uses_left;
  };
  Key DrawLocal(Worker& w);
  // Takes k keys from the pool (growing it to k entries), consuming uses.
  void TakeFromPool(uint32_t k, std::vector<Key>* keys);

  SamplingOptions options_;
  Rng rng_;
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, Prepared> prepared_;
  std::vector<PoolEntry> pool_;
  size_t pool_next_ = 0;
};

}  // namespace augur

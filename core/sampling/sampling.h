// Sampling access (REFERENCE §2.5): PrepareSample(K, start, end), then
// PullSample(handle) returns K keys drawn from the application's distribution
// together with their values.
//
// Schemes, and whether the returned keys follow the application's distribution:
//   naive   draw at pull time, ordinary pull (remote as needed)     exact
//   prefetch draw at prepare time; pull the drawn keys asynchronously
//           prefetch_lead clocks before the sample's start, so at
//           use a remote row is not waited for when the round trip
//           is shorter than that; the values are read that much
//           early (a little stale, as a replica's are)              exact
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
// A sampler is given what it needs at construction: the worker's operations
// (SampleAccess, called per sample or per batch of keys, never per key), the
// value layout, and the store it may check for local keys.
// Thread-safety: a WorkerSampler belongs to one worker.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/rng.h"
#include "core/base/status.h"
#include "core/base/types.h"
#include "core/store/flat_key_map.h"
#include "core/store/param_store.h"

namespace augur {

class ParamStore;
class ValueLayout;

enum class SampleScheme { kNaive, kPrefetch, kPreloc, kPool, kLocal };
Result<SampleScheme> ParseSampleScheme(const std::string& name);
const char* SampleSchemeName(SampleScheme s);
// One line for reports: how far the scheme's keys follow the distribution.
const char* SampleSchemeFidelity(SampleScheme s);

struct SamplingOptions {
  SampleScheme scheme = SampleScheme::kNaive;
  uint32_t reuse = 4;  // pool: times each pooled key is returned
  // prefetch: a sample's keys are pulled once the worker's clock is within
  // this many clocks of the sample's start (never earlier than the caller
  // prepared it). Longer hides a longer round trip; the values are read that
  // much earlier. Measured: a lead as long as the intent lookahead (32)
  // cost 10% of wv's held-out loss at 8 x 4 in the simulator, 2 cost 0.9%.
  Clock prefetch_lead = 2;
  // The application's distribution; must be deterministic given the Rng.
  std::function<Key(Rng&)> draw;
};

struct SampleHandle {
  uint64_t id = 0;
};

// The worker operations a sampler uses (Worker implements it). Same
// contracts as the Worker methods of the same names.
class SampleAccess {
 public:
  virtual ~SampleAccess() = default;
  virtual Clock clock() const = 0;
  virtual void Intent(std::span<const Key> keys, Clock start, Clock end) = 0;
  virtual Ticket Pull(std::span<const Key> keys, std::span<float> out) = 0;
  virtual Status Wait(Ticket t) = 0;
};

// Where a sampler's keys are: the value layout (their lengths) and the
// node's store (whether a key is held here). On a one-node cluster every key
// is held here and used in place (direct access), so nothing is read ahead.
struct SampleLocality {
  const ValueLayout& layout;
  ParamStore& store;
  bool one_node;
};

class WorkerSampler {
 public:
  // `access` and the locality's referents outlive the sampler.
  WorkerSampler(SamplingOptions options, uint64_t seed, SampleAccess& access,
                SampleLocality locality)
      : options_(std::move(options)), rng_(seed), access_(access), locality_(locality) {}

  // local: a key is the first held here of up to this many draws; when all
  // miss (a node holding few of the keys drawn), the last draw held here
  // again (a duplicate negative, not a remote one), or if there was none
  // yet, the last draw. At 8 x 4 on WordNet 64 draws left 40k negatives an
  // epoch remote, nearly every batch waiting for one round trip.
  static constexpr uint32_t kLocalTries = 256;

  // REQUIRES: options.draw is set.
  SampleHandle Prepare(uint32_t k, Clock start, Clock end);
  // Fills keys_out (K keys) and values_out (their values) and waits for them;
  // values_out null: the keys only (the caller accesses them itself).
  void Pull(SampleHandle h, std::vector<Key>* keys_out, std::vector<float>* values_out);
  // Draws from the application's distribution so far (pool: about the keys
  // returned / reuse; local: rejected draws count too).
  uint64_t draws() const { return draws_; }
  // True when Pull's values were read ahead of it (prefetch): a caller that
  // wants the values must take them from Pull. Otherwise Pull with
  // values_out null costs no access at all, and the caller may pull the
  // keys itself, e.g. each distinct key once with the rest of its batch.
  bool ReadsValuesAhead() const { return options_.scheme == SampleScheme::kPrefetch; }
  // True when the drawn keys are held here by the time Pull returns them,
  // but for a few that moved (local: drawn among them; pool and preloc:
  // made local through intent); false when they are wherever their main
  // copy is (naive, prefetch).
  bool KeysHeldAtPull() const { return KeysHeldAtPull(options_.scheme); }
  static bool KeysHeldAtPull(SampleScheme s) {
    return s != SampleScheme::kNaive && s != SampleScheme::kPrefetch;
  }

 private:
  Key Draw() {
    ++draws_;
    return options_.draw(rng_);
  }
  struct Prepared {
    uint32_t k = 0;
    Clock start = 0;
    Clock end = 0;
    std::vector<Key> keys;  // prefetch, preloc, pool: chosen at prepare time
    // prefetch: the distinct drawn keys, the values their pull (ticket
    // `fetch`, in flight until used) writes, and each drawn key's row there.
    std::vector<Key> fetch_keys;
    std::vector<float> fetched;
    std::vector<uint32_t> fetched_row;
    uint64_t fetch = 0;
    bool fetch_started = false;
  };
  // prefetch: starts the pull of p's keys (the heap block of p.fetched is
  // the pull's output: it stays in place until the pull completes).
  void StartFetch(Prepared& p);
  // prefetch: starts the fetches of the samples, in preparation order, whose
  // start is within prefetch_lead of the worker's clock.
  void StartDueFetches();
  // prefetch: waits for that pull and copies the values of p's keys out.
  void FinishFetch(Prepared& p, std::vector<float>* values_out);
  struct PoolEntry {
    Key key;
    uint32_t uses_left;
  };
  // local: fills `out` with draws, each the first held here of up to
  // kLocalTries consecutive draws (see kLocalTries for when all miss).
  void DrawLocal(std::span<Key> out);
  size_t TotalLength(std::span<const Key> keys) const;
  // Takes k keys from the pool (growing it to k entries), consuming uses.
  void TakeFromPool(uint32_t k, std::vector<Key>* keys);

  SamplingOptions options_;
  Rng rng_;
  SampleAccess& access_;
  SampleLocality locality_;
  uint64_t next_id_ = 1;
  uint64_t draws_ = 0;
  std::unordered_map<uint64_t, Prepared> prepared_;
  std::vector<PoolEntry> pool_;
  size_t pool_next_ = 0;
  uint64_t next_fetch_ = 1;  // prefetch: the first prepared id whose fetch may not have started
  FlatKeyMap<uint32_t> fetch_index_;  // StartFetch's scratch: key -> row in fetch_keys
  // DrawLocal's scratch: a block of draws and whether each is held here;
  // the draws outside the store's bitmap (HeldBitmap), their places in the
  // block, and the store batch that looks them up.
  std::optional<Key> last_local_;  // DrawLocal's last draw held here, its fallback
  std::vector<Key> local_drawn_;
  std::vector<uint8_t> local_held_;
  std::vector<Key> unknown_keys_;
  std::vector<uint32_t> unknown_at_;
  ParamStore::BatchScratch store_scratch_;
};

}  // namespace augur

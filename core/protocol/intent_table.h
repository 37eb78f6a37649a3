// IntentTable: a node's aggregate of its workers' intent signals (REFERENCE §2.6).
//
// Intent(keys, start, end) from worker w means "w will access keys while its
// clock is in [start, end)". A signal is *pending* until w's action horizon
// (clock + window, see ActionTiming) reaches `start`, then *active* until w's
// clock reaches `end`. The table keeps, per key, the number of active signals
// over all workers and reports the keys whose count went 0 -> 1 (the node now
// wants the key) and 1 -> 0 (it no longer does). It also counts, per key,
// the active signals that were *announced ahead* (signalled while the
// worker's clock was still before `start`): only those gave the node time
// to act, so only an access under one of them that finds its key remote is
// "late"; one under a same-clock signal had no notice. Memory is
// proportional to the live signals, not to the key space.
// Not thread-safe: the Node guards it with its engine mutex.
#pragma once

#include <queue>
#include <span>
#include <vector>

#include "core/base/types.h"
#include "core/store/flat_key_map.h"

namespace augur {

class IntentTable {
 public:
  explicit IntentTable(uint32_t workers) : workers_(workers) {}

  // `clock` is w's clock at the signal.
  void Add(WorkerId w, std::span<const Key> keys, Clock start, Clock end, Clock clock);
  // Activates w's pending signals with start <= horizon and expires its active
  // signals with end <= clock. Appends the keys that became wanted/unwanted,
  // and for each activated signal its lead (start - clock, in clocks).
  void Advance(WorkerId w, Clock clock, Clock horizon, std::vector<Key>* wanted,
               std::vector<Key>* unwanted, std::vector<Clock>* leads);
  // Active signals (any worker) naming the key: all of them, and those
  // announced ahead (start > the clock at the signal).
  struct Counts {
    uint32_t count = 0;
    uint32_t ahead = 0;
  };
  Counts Active(Key key) const {
    const Counts* c = keys_.Find(key);
    return c == nullptr ? Counts{} : *c;
  }
  uint32_t ActiveCount(Key key) const { return Active(key).count; }
  // A hint: loads the bucket Active(key) will probe (a batch caller's next
  // keys overlap their cache misses). Changes nothing.
  void PrefetchActive(Key key) const { keys_.PrefetchHashed(Mix64(key)); }
  uint32_t AheadCount(Key key) const { return Active(key).ahead; }
  size_t active_keys() const { return keys_.size(); }

 private:
  struct Signal {
    Clock start;
    Clock end;
    bool ahead;  // announced before its start clock
    std::vector<Key> keys;
  };
  struct ByStart {
    bool operator()(const Signal& a, const Signal& b) const { return a.start > b.start; }
  };
  struct ByEnd {
    bool operator()(const Signal& a, const Signal& b) const { return a.end > b.end; }
  };
  struct PerWorker {
    std::priority_queue<Signal, std::vector<Signal>, ByStart> pending;
    std::priority_queue<Signal, std::vector<Signal>, ByEnd> active;
  };

  // Prefetches the table's bucket for keys[at], if any: the counts of a
  // signal's keys are updated one after another, kPrefetchKeys ahead of the
  // prefetch, and a large table misses the cache on each.
  static constexpr size_t kPrefetchKeys = 8;
  void Prefetch(const std::vector<Key>& keys, size_t at) const;

  std::vector<PerWorker> workers_;
  FlatKeyMap<Counts> keys_;  // every key an active signal names
};

}  // namespace augur

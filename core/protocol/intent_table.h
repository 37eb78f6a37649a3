// IntentTable: a node's aggregate of its workers' intent signals (REFERENCE §2.6).
//
// Intent(keys, start, end) from worker w means "w will access keys while its
// clock is in [start, end)". The table answers whether the node has current or
// upcoming intent for a key and drops signals whose end has passed. Memory is
// proportional to the live signals, not to the key space.
// Not thread-safe: the Node guards it with its engine mutex.
#pragma once

#include <deque>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/types.h"

namespace augur {

class IntentTable {
 public:
  explicit IntentTable(uint32_t workers) : per_worker_(workers) {}

  void Add(WorkerId w, std::span<const Key> keys, Clock start, Clock end);
  // Drops worker w's signals with end <= clock.
  void Expire(WorkerId w, Clock clock);
  // Number of live signals (any worker) naming the key.
  uint32_t ActiveCount(Key key) const;
  size_t live_keys() const { return counts_.size(); }

 private:
  struct Signal {
    Clock start;
    Clock end;
    std::vector<Key> keys;
  };
  std::vector<std::deque<Signal>> per_worker_;  // each ordered as signalled
  std::unordered_map<Key, uint32_t> counts_;
};

}  // namespace augur

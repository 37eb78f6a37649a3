#include "core/protocol/intent_table.h"

#include <utility>

namespace augur {

void IntentTable::Add(WorkerId w, std::span<const Key> keys, Clock start, Clock end, Clock clock) {
  if (end <= start || keys.empty()) return;
  workers_[w].pending.push(
      Signal{start, end, start > clock, std::vector<Key>(keys.begin(), keys.end())});
}

void IntentTable::Prefetch(const std::vector<Key>& keys, size_t at) const {
  if (at < keys.size()) keys_.PrefetchHashed(Mix64(keys[at]));
}

void IntentTable::Advance(WorkerId w, Clock clock, Clock horizon, std::vector<Key>* wanted,
                          std::vector<Key>* unwanted, std::vector<Clock>* leads) {
  PerWorker& pw = workers_[w];
  while (!pw.pending.empty() && pw.pending.top().start <= horizon) {
    // Moved out, not copied (top() is const only to protect the order,
    // which start and end, untouched by the move, still give pop()).
    Signal s = std::move(const_cast<Signal&>(pw.pending.top()));
    pw.pending.pop();
    if (s.end <= clock) continue;  // expired before it was ever acted on
    leads->push_back(s.start - clock);
    for (size_t j = 0; j < kPrefetchKeys; ++j) Prefetch(s.keys, j);
    for (size_t j = 0; j < s.keys.size(); ++j) {
      Prefetch(s.keys, j + kPrefetchKeys);
      const Key k = s.keys[j];
      Counts& c = *keys_.Insert(k, Counts{}).first;
      if (++c.count == 1) wanted->push_back(k);
      if (s.ahead) ++c.ahead;
    }
    pw.active.push(std::move(s));
  }
  while (!pw.active.empty() && pw.active.top().end <= clock) {
    const bool ahead = pw.active.top().ahead;
    const std::vector<Key>& keys = pw.active.top().keys;
    for (size_t j = 0; j < kPrefetchKeys; ++j) Prefetch(keys, j);
    for (size_t j = 0; j < keys.size(); ++j) {
      Prefetch(keys, j + kPrefetchKeys);
      const Key k = keys[j];
      Counts* c = keys_.Find(k);
      if (ahead) --c->ahead;
      if (--c->count == 0) {
        keys_.Erase(k);
        unwanted->push_back(k);
      }
    }
    pw.active.pop();
  }
}

}  // namespace augur

#include "core/protocol/intent_table.h"

namespace augur {

void IntentTable::Add(WorkerId w, std::span<const Key> keys, Clock start, Clock end) {
  if (end <= start || keys.empty()) return;
  per_worker_[w].push_back(Signal{start, end, std::vector<Key>(keys.begin(), keys.end())});
  for (Key k : keys) ++counts_[k];
}

void IntentTable::Expire(WorkerId w, Clock clock) {
  auto& q = per_worker_[w];
  // Signals are mostly signalled in end order; sweep the whole queue only when the front expires.
  if (q.empty() || q.front().end > clock) return;
  std::deque<Signal> kept;
  for (Signal& s : q) {
    if (s.end > clock) {
      kept.push_back(std::move(s));
      continue;
    }
    for (Key k : s.keys) {
      auto it = counts_.find(k);
      if (it != counts_.end() && --it->second == 0) counts_.erase(it);
    }
  }
  q = std::move(kept);
}

uint32_t IntentTable::ActiveCount(Key key) const {
  auto it = counts_.find(key);
  return it == counts_.end() ? 0 : it->second;
}

}  // namespace augur

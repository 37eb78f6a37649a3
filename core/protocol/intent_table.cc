#include "core/protocol/intent_table.h"

namespace augur {

void IntentTable::Add(WorkerId w, std::span<const Key> keys, Clock start, Clock end, Clock clock) {
  if (end <= start || keys.empty()) return;
  workers_[w].pending.push(
      Signal{start, end, start > clock, std::vector<Key>(keys.begin(), keys.end())});
}

void IntentTable::Advance(WorkerId w, Clock clock, Clock horizon, std::vector<Key>* wanted,
                          std::vector<Key>* unwanted, std::vector<Clock>* leads) {
  PerWorker& pw = workers_[w];
  while (!pw.pending.empty() && pw.pending.top().start <= horizon) {
    Signal s = pw.pending.top();
    pw.pending.pop();
    if (s.end <= clock) continue;  // expired before it was ever acted on
    leads->push_back(s.start - clock);
    for (Key k : s.keys) {
      Counts& c = *keys_.Insert(k, Counts{}).first;
      if (++c.count == 1) wanted->push_back(k);
      if (s.ahead) ++c.ahead;
    }
    pw.active.push(std::move(s));
  }
  while (!pw.active.empty() && pw.active.top().end <= clock) {
    const bool ahead = pw.active.top().ahead;
    for (Key k : pw.active.top().keys) {
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

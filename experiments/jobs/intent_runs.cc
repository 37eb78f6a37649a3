#include "experiments/jobs/intent_runs.h"

#include <algorithm>
#include <tuple>

#include "core/store/flat_key_map.h"

namespace augur {

IntentRuns::IntentRuns(uint32_t batches, uint32_t gap,
                       const std::function<void(uint32_t, std::vector<Key>*)>& keys_of) {
  struct Open {
    uint32_t start, last;
    uint64_t seq;  // first-use order of the run
    Key key;
  };
  struct Closed {
    uint32_t start, end;
    uint64_t seq;
    Key key;
  };
  FlatKeyMap<uint32_t> open_of;  // key -> its open run in `open`
  std::vector<Open> open;
  std::vector<Closed> closed;
  std::vector<Key> keys;
  uint64_t seq = 0;
  for (uint32_t i = 0; i < batches; ++i) {
    keys.clear();
    keys_of(i, &keys);
    for (Key k : keys) {
      const auto [at, inserted] = open_of.Insert(k, static_cast<uint32_t>(open.size()));
      if (inserted) {
        open.push_back(Open{i, i, seq++, k});
        continue;
      }
      Open& o = open[*at];
      if (o.last == i) continue;  // again in the same batch
      if (i - o.last <= gap) {
        o.last = i;
        continue;
      }
      closed.push_back(Closed{o.start, o.last + 1, o.seq, k});
      o = Open{i, i, seq++, k};
    }
  }
  for (const Open& o : open) closed.push_back(Closed{o.start, o.last + 1, o.seq, o.key});
  std::sort(closed.begin(), closed.end(), [](const Closed& a, const Closed& b) {
    return std::tie(a.start, a.end, a.seq) < std::tie(b.start, b.end, b.seq);
  });
  first_at_.assign(size_t{batches} + 1, 0);
  for (const Closed& c : closed) {
    if (runs_.empty() || runs_.back().start != c.start || runs_.back().end != c.end) {
      runs_.push_back(IntentRun{c.start, c.end, {}});
      ++first_at_[c.start + 1];
    }
    runs_.back().keys.push_back(c.key);
  }
  for (uint32_t i = 0; i < batches; ++i) first_at_[i + 1] += first_at_[i];
  total_keys_ = closed.size();
}

std::span<const IntentRun> IntentRuns::RunsStartingAt(uint32_t batch) const {
  if (batch + 1 >= first_at_.size()) return {};
  return std::span<const IntentRun>(runs_.data() + first_at_[batch],
                                    first_at_[batch + 1] - first_at_[batch]);
}

}  // namespace augur

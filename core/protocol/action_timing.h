// ActionTiming: when to act on an intent signal (REFERENCE §2.6, "when").
//
// Acting too late leaves the key remote when the worker reaches `start`;
// acting too early holds it needlessly. Per worker, the clocks that pass in
// one sync round are estimated by exponential smoothing (mean and variance);
// a signal is acted on once start <= clock + window, where the window covers
// the clocks of two rounds at a high quantile (mean + 2 sd, times two) plus
// one. Until the first sync round has measured a worker, its window is
// unbounded (act on signal): a late key costs a round trip on the worker's
// critical path, an early one only holds the key a little longer. (With a
// guessed initial window of 3 clocks, 10-12% of the accesses of
// `scripts/bench-policies.sh` were late.) `act_immediately` keeps the window
// unbounded for the whole run.
// Not thread-safe: guarded by the Node's engine mutex.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "core/base/types.h"

namespace augur {

class ActionTiming {
 public:
  static constexpr Clock kUnbounded = std::numeric_limits<Clock>::max() / 4;

  ActionTiming(uint32_t workers, bool act_immediately)
      : act_immediately_(act_immediately), workers_(workers) {}

  // Called at each sync round with every worker's current clock.
  void OnSyncRound(WorkerId w, Clock clock) {
    PerWorker& p = workers_[w];
    const double advanced = static_cast<double>(clock - p.clock_at_last_round);
    p.clock_at_last_round = clock;
    if (!p.estimated) {  // the first observation replaces the unknown prior
      p.estimated = true;
      p.mean = advanced;
      return;
    }
    const double diff = advanced - p.mean;
    p.mean += kAlpha * diff;
    p.var = (1 - kAlpha) * (p.var + kAlpha * diff * diff);
  }
  Clock Window(WorkerId w) const {
    if (act_immediately_) return kUnbounded;
    const PerWorker& p = workers_[w];
    if (!p.estimated) return kUnbounded;
    return 1 + static_cast<Clock>(std::ceil(2 * (p.mean + 2 * std::sqrt(p.var))));
  }
  Clock Horizon(WorkerId w, Clock clock) const { return clock + Window(w); }

 private:
  static constexpr double kAlpha = 0.25;
  struct PerWorker {
    Clock clock_at_last_round = 0;
    bool estimated = false;  // false until a sync round has measured this worker
    double mean = 0;
    double var = 0;
  };
  bool act_immediately_;
  std::vector<PerWorker> workers_;
};

}  // namespace augur

// ActionTiming: when to act on an intent signal (REFERENCE §2.6, "when").
//
// Acting too late leaves the key remote when the worker reaches `start`;
// acting too early holds it needlessly. Per worker, the clocks that pass in
// one sync round are estimated by exponential smoothing (mean and variance);
// a signal is acted on once start <= clock + window, where the window covers
// the clocks of two rounds at a high quantile (mean + 2 sd, times two) plus
// one. `act_immediately` makes the window infinite (act on signal).
// Not thread-safe: guarded by the Node's engine mutex.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "core/base/types.h"

namespace augur {

class ActionTiming {
 public:
  ActionTiming(uint32_t workers, bool act_immediately)
      : act_immediately_(act_immediately), workers_(workers) {}

  // Called at each sync round with every worker's current clock.
  void OnSyncRound(WorkerId w, Clock clock) {
    PerWorker& p = workers_[w];
    const double advanced = static_cast<double>(clock - p.clock_at_last_round);
    p.clock_at_last_round = clock;
    const double diff = advanced - p.mean;
    p.mean += kAlpha * diff;
    p.var = (1 - kAlpha) * (p.var + kAlpha * diff * diff);
  }
  Clock Window(WorkerId w) const {
    if (act_immediately_) return std::numeric_limits<Clock>::max() / 4;
    const PerWorker& p = workers_[w];
    return 1 + static_cast<Clock>(std::ceil(2 * (p.mean + 2 * std::sqrt(p.var))));
  }
  Clock Horizon(WorkerId w, Clock clock) const { return clock + Window(w); }

 private:
  static constexpr double kAlpha = 0.25;
  struct PerWorker {
    Clock clock_at_last_round = 0;
    double mean = 1;  // before the first round: assume one clock per round
    double var = 0;
  };
  bool act_immediately_;
  std::vector<PerWorker> workers_;
};

}  // namespace augur

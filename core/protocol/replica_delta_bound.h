// ReplicaDeltaBound: bounds what one replica flush may change at the main
// copy (issue 18; NuPS's delta clipping, Renz-Wieland et al., SIGMOD'22).
//
// A replica accumulates its node's gradient pushes between flushes. A hot key
// replicated on many nodes thus receives, per round, the sum of many steps
// all computed from the same stale value: with plain SGD on a small
// vocabulary that sum overshoots and training diverges. Before a flush is
// sent, Bound() scales its delta down to `factor` times the running mean of
// the flushed deltas' norms (per float, so rows of any length compare) when
// it is larger, once `warmup` non-zero flushes have set the mean.
//
// Guarantee: after the warm-up, no flush moves a main copy by more than
// `factor` x the node's mean flush (for sgd: lr x factor x the mean gradient
// sum), so a hot replica's steps stay within a constant of the others'.
// Cost: clipped deltas are lost gradient (the hot keys learn a bit slower);
// no bytes or messages are added. The Node applies it to sgd pushes only:
// additive pushes (sum) are never changed, their sum is the contract the
// --verify check tests; AdaGrad (kge) learned much more slowly with it on
// WordNet (experiments/compare/GOALS.md), as NuPS leaves it off for kge.
// Threading: not thread-safe; the owning Node calls it under its engine lock.
#pragma once

#include <cstdint>

namespace augur {

struct ReplicaDeltaBoundOptions {
  double factor = 0;      // 0: off
  uint64_t warmup = 256;  // non-zero flushes before anything is clipped
};

class ReplicaDeltaBound {
 public:
  explicit ReplicaDeltaBound(ReplicaDeltaBoundOptions options) : options_(options) {}
  bool enabled() const { return options_.factor > 0; }
  // Records the delta's norm and clips it in place; true if it was clipped.
  bool Bound(float* delta, uint32_t len);
  double mean_rms() const { return mean_; }

 private:
  ReplicaDeltaBoundOptions options_;
  double mean_ = 0;  // running mean of the flushes' RMS per float (unclipped)
  uint64_t seen_ = 0;
};

}  // namespace augur

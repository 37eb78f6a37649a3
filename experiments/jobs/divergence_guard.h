// DivergenceGuard: recognises a training loss that ran away.
//
// A loss diverged when it is NaN or infinite, or more than kGrowthLimit (10)
// times the first loss observed, or than the untrained model's loss where the
// workload knows it (kge and wv: every logistic term starts near ln 2), so a
// run that exploded in its first batches is caught too (kge at --lr 1000
// began at 1.8e10 and came down from there). Observe() is fed a sequence of losses (the
// epochs' mean training losses, or one worker's loss over successive windows
// of its batches); the first diverged one is kept with the last good one, and
// Message() is the one line a run stops with. A loss with nothing summed
// (terms == 0) is not an observation.
// Plain value type; not thread-safe (one per worker or per runner).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace augur {

class DivergenceGuard {
 public:
  static constexpr double kGrowthLimit = 10;

  // `untrained_loss`: the untrained model's mean loss in the units observed;
  // 0: unknown (only the first loss is the reference).
  explicit DivergenceGuard(double untrained_loss = 0) : untrained_(untrained_loss) {}

  // `epoch` is 0-based. Returns false once the sequence diverged (this
  // observation or an earlier one); later observations are ignored.
  bool Observe(uint32_t epoch, double loss);
  bool diverged() const { return bad_.has_value(); }
  // "training diverged in epoch 3: loss inf (more than 10x the first, 4.158);
  // last good loss 3.912". REQUIRES: diverged().
  std::string Message() const;

 private:
  struct Seen {
    uint32_t epoch;
    double loss;
  };
  double Reference() const;  // the smaller of the first and the untrained loss

  double untrained_ = 0;
  std::optional<double> first_;
  std::optional<Seen> last_good_;
  std::optional<Seen> bad_;
};

}  // namespace augur

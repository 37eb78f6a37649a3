#include "experiments/jobs/divergence_guard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace augur {

namespace {
std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}
}  // namespace

double DivergenceGuard::Reference() const {
  return untrained_ > 0 ? std::min(*first_, untrained_) : *first_;
}

bool DivergenceGuard::Observe(uint32_t epoch, double loss) {
  if (bad_.has_value()) return false;
  const bool finite = std::isfinite(loss);
  if (finite && !first_.has_value()) first_ = loss;
  if (!finite || (Reference() > 0 && loss > kGrowthLimit * Reference())) {
    bad_ = Seen{epoch, loss};
    return false;
  }
  last_good_ = Seen{epoch, loss};
  return true;
}

std::string DivergenceGuard::Message() const {
  std::string s = "training diverged in epoch " + std::to_string(bad_->epoch + 1) + ": loss " +
                  Number(bad_->loss);
  if (std::isfinite(bad_->loss)) {
    s += " (more than " + Number(kGrowthLimit) + "x " +
         (Reference() < *first_ ? "the untrained model's, " + Number(untrained_)
                                : "the first, " + Number(*first_)) +
         ")";
  }
  s += last_good_.has_value() ? "; last good loss " + Number(last_good_->loss) + " (epoch " +
                                    std::to_string(last_good_->epoch + 1) + ")"
                              : std::string("; no good loss before it");
  return s;
}

}  // namespace augur

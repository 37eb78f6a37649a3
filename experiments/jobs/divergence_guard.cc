#include "experiments/jobs/divergence_guard.h"

#include <algorithm>
#include <cmath>

#include "core/base/format_number.h"

namespace augur {

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
                  FormatNumber(bad_->loss);
  if (std::isfinite(bad_->loss)) {
    s += " (more than " + FormatNumber(kGrowthLimit) + "x " +
         (Reference() < *first_ ? "the untrained model's, " + FormatNumber(untrained_)
                                : "the first, " + FormatNumber(*first_)) +
         ")";
  }
  s += last_good_.has_value() ? "; last good loss " + FormatNumber(last_good_->loss) + " (epoch " +
                                    std::to_string(last_good_->epoch + 1) + ")"
                              : std::string("; no good loss before it");
  return s;
}

}  // namespace augur

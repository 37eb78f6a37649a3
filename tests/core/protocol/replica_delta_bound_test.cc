// ReplicaDeltaBound (core/protocol/replica_delta_bound.h): nothing is clipped
// during the warm-up or when off; afterwards a flush larger than factor x the
// running mean is scaled down to that bound, keeping its direction.
#include "core/protocol/replica_delta_bound.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace augur {
namespace {

double Rms(const std::vector<float>& v) {
  double sq = 0;
  for (float x : v) sq += double{x} * x;
  return std::sqrt(sq / v.size());
}

TEST_CASE("replica delta bound: off and warm-up leave deltas alone", "[replica_bound]") {
  ReplicaDeltaBound off({.factor = 0, .warmup = 2});
  std::vector<float> big(4, 100.0f);
  CHECK_FALSE(off.Bound(big.data(), 4));
  CHECK(big[0] == 100.0f);
  ReplicaDeltaBound b({.factor = 2, .warmup = 4});
  for (int i = 0; i < 4; ++i) {
    std::vector<float> d(4, i == 3 ? 50.0f : 1.0f);  // a large one still in the warm-up
    CHECK_FALSE(b.Bound(d.data(), 4));
    CHECK(d[0] == (i == 3 ? 50.0f : 1.0f));
  }
}

TEST_CASE("replica delta bound: a large flush is scaled to factor x the mean", "[replica_bound]") {
  ReplicaDeltaBound b({.factor = 2, .warmup = 8});
  for (int i = 0; i < 8; ++i) {
    std::vector<float> d = {1.0f, -1.0f, 1.0f, -1.0f};  // RMS 1
    CHECK_FALSE(b.Bound(d.data(), 4));
  }
  CHECK(b.mean_rms() == Approx(1.0));
  std::vector<float> small = {1.5f, -1.5f, 1.5f, -1.5f};  // within 2x: kept
  CHECK_FALSE(b.Bound(small.data(), 4));
  CHECK(small[0] == 1.5f);
  const double mean = b.mean_rms();
  std::vector<float> big = {30.0f, -40.0f, 0.0f, 0.0f};
  CHECK(b.Bound(big.data(), 4));
  CHECK(Rms(big) == Approx(2 * mean));
  CHECK(big[0] / big[1] == Approx(-0.75));  // same direction
  std::vector<float> zero(4, 0.0f);         // a poll is not a flush
  CHECK_FALSE(b.Bound(zero.data(), 4));
}

}  // namespace
}  // namespace augur

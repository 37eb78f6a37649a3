// DivergenceGuard (experiments/jobs/divergence_guard.h): NaN, inf and more
// than 10x the first loss are divergence; the message names the epoch and the
// last good loss.
#include "experiments/jobs/divergence_guard.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

namespace augur {
namespace {

TEST_CASE("divergence guard: a falling or slowly rising loss is fine", "[divergence]") {
  DivergenceGuard g;
  for (double loss : {4.0, 3.0, 2.5, 39.9}) CHECK(g.Observe(0, loss));
  CHECK_FALSE(g.diverged());
}

TEST_CASE("divergence guard: more than 10x the first loss diverges", "[divergence]") {
  DivergenceGuard g;
  CHECK(g.Observe(0, 4.0));
  CHECK(g.Observe(1, 3.5));
  CHECK_FALSE(g.Observe(2, 40.5));
  CHECK(g.diverged());
  CHECK_FALSE(g.Observe(3, 1.0));  // stays diverged
  const std::string m = g.Message();
  INFO(m);
  CHECK(m.find("epoch 3") != std::string::npos);
  CHECK(m.find("loss 40.5") != std::string::npos);
  CHECK(m.find("last good loss 3.5 (epoch 2)") != std::string::npos);
}

TEST_CASE("divergence guard: a first loss far above the untrained model's diverges",
          "[divergence]") {
  // kge at --lr 1000 began at 1.8e10 and came down from there: against the
  // first loss alone it never grew.
  DivergenceGuard g(7.62);
  CHECK_FALSE(g.Observe(0, 1.8e10));
  INFO(g.Message());
  CHECK(g.Message().find("more than 10x the untrained model's, 7.62") != std::string::npos);
  DivergenceGuard calm(7.62);  // a first loss below the untrained one stays the reference
  CHECK(calm.Observe(0, 4.0));
  CHECK(calm.Observe(1, 39.0));
  CHECK_FALSE(calm.Observe(2, 41.0));
  CHECK(calm.Message().find("the first, 4") != std::string::npos);
  DivergenceGuard unknown;  // 0: no untrained reference
  CHECK(unknown.Observe(0, 1.8e10));
}

TEST_CASE("divergence guard: NaN and inf diverge, also first", "[divergence]") {
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    DivergenceGuard g;
    CHECK_FALSE(g.Observe(0, bad));
    CHECK(g.diverged());
    CHECK(g.Message().find("no good loss") != std::string::npos);
    DivergenceGuard h;
    CHECK(h.Observe(0, 2.0));
    CHECK_FALSE(h.Observe(0, bad));
    CHECK(h.Message().find("epoch 1") != std::string::npos);
    CHECK(h.Message().find("last good loss 2") != std::string::npos);
  }
}

}  // namespace
}  // namespace augur

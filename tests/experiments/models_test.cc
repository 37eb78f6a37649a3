// Model maths: ComplEx gradients against finite differences, the ranking
// queries against direct scores, SGNS and MF steps reduce their loss. Unit label.
#include <catch2/catch.hpp>
#include <vector>

#include "core/base/rng.h"
#include "experiments/kge/complex_model.h"
#include "experiments/mf/mf_model.h"
#include "experiments/wv/alias_sampler.h"
#include "experiments/wv/sgns_model.h"

namespace augur {
namespace {

std::vector<float> RandomRow(Rng& rng, uint32_t n) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.Uniform() * 2 - 1);
  return v;
}

TEST_CASE("ComplEx gradients match finite differences", "[models]") {
  constexpr uint32_t d = 5;
  Rng rng(42);
  std::vector<float> h = RandomRow(rng, 2 * d), r = RandomRow(rng, 2 * d),
                     t = RandomRow(rng, 2 * d);
  for (bool positive : {true, false}) {
    // Analytic gradient of the logistic loss.
    std::vector<float> gh(2 * d, 0), gr(2 * d, 0), gt(2 * d, 0);
    const float s = ComplEx::Score(h.data(), r.data(), t.data(), d);
    ComplEx::AddGradients(h.data(), r.data(), t.data(), d, LogisticGrad(s, positive), gh.data(),
                          gr.data(), gt.data());
    auto loss = [&] {
      return LogisticLoss(ComplEx::Score(h.data(), r.data(), t.data(), d), positive);
    };
    const float eps = 1e-3f;
    for (auto [row, grad] : {std::pair{&h, &gh}, std::pair{&r, &gr}, std::pair{&t, &gt}}) {
      for (uint32_t i = 0; i < 2 * d; ++i) {
        const float keep = (*row)[i];
        (*row)[i] = keep + eps;
        const float up = loss();
        (*row)[i] = keep - eps;
        const float down = loss();
        (*row)[i] = keep;
        INFO("positive " << positive << " element " << i);
        CHECK((*grad)[i] == Approx((up - down) / (2 * eps)).margin(2e-3));
      }
    }
  }
}

TEST_CASE("ComplEx ranking queries equal direct scores", "[models]") {
  constexpr uint32_t d = 4;
  Rng rng(3);
  std::vector<float> h = RandomRow(rng, 2 * d), r = RandomRow(rng, 2 * d),
                     t = RandomRow(rng, 2 * d);
  std::vector<float> q(2 * d), p(2 * d);
  ComplEx::TailQuery(h.data(), r.data(), d, q.data());
  ComplEx::HeadQuery(r.data(), t.data(), d, p.data());
  float qt = 0, ph = 0;
  for (uint32_t i = 0; i < 2 * d; ++i) {
    qt += q[i] * t[i];
    ph += p[i] * h[i];
  }
  const float s = ComplEx::Score(h.data(), r.data(), t.data(), d);
  CHECK(qt == Approx(s).margin(1e-5));
  CHECK(ph == Approx(s).margin(1e-5));
}

TEST_CASE("SGNS and MF steps lower their loss", "[models]") {
  Rng rng(5);
  constexpr uint32_t d = 8;
  std::vector<float> in = RandomRow(rng, d), out = RandomRow(rng, d), grad(d, 0);
  const float before = SgnsLoss(in.data(), out.data(), d, true);
  SgnsTerm(in.data(), out.data(), d, true, 0.1f, grad.data());
  for (uint32_t k = 0; k < d; ++k) in[k] -= 0.1f * grad[k];
  CHECK(SgnsLoss(in.data(), out.data(), d, true) < before);
  std::vector<float> u = RandomRow(rng, d), v = RandomRow(rng, d), gu(d), gv(d);
  const float err0 = 3.0f - MfPredict(u.data(), v.data(), d);
  MfGradients(3.0f, u.data(), v.data(), d, 0.0f, gu.data(), gv.data());
  for (uint32_t k = 0; k < d; ++k) {
    u[k] -= 0.05f * gu[k];
    v[k] -= 0.05f * gv[k];
  }
  CHECK(std::abs(3.0f - MfPredict(u.data(), v.data(), d)) < std::abs(err0));
}

TEST_CASE("alias sampler follows its distribution", "[models]") {
  AliasSampler s({1.0, 3.0, 0.0, 4.0});
  Rng rng(9);
  std::vector<int> count(4, 0);
  constexpr int kDraws = 80000;
  for (int i = 0; i < kDraws; ++i) ++count[s.Draw(rng)];
  CHECK(count[2] == 0);
  CHECK(count[0] / double(kDraws) == Approx(0.125).margin(0.01));
  CHECK(count[1] / double(kDraws) == Approx(0.375).margin(0.01));
  CHECK(count[3] / double(kDraws) == Approx(0.5).margin(0.01));
}

}  // namespace
}  // namespace augur

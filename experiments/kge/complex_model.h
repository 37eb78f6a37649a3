// ComplEx (Trouillon et al., ICML 2016): knowledge-graph embedding scores and
// gradients on raw rows, shared by the single-node trainer and the PS job.
//
// An entity or relation row has 2*d floats: d real parts, then d imaginary
// parts. score(h, r, t) = Re(<h, r, conj(t)>). Training uses the logistic
// loss: softplus(-score) for a true triple, softplus(score) for a negative.
// Pure functions over caller-owned memory; thread-safe.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>

namespace augur {

class ComplEx {
 public:
  using Vec = Eigen::Map<Eigen::ArrayXf>;
  using CVec = Eigen::Map<const Eigen::ArrayXf>;

  static float Score(const float* h, const float* r, const float* t, uint32_t d) {
    CVec hr(h, d), hi(h + d, d), rr(r, d), ri(r + d, d), tr(t, d), ti(t + d, d);
    return (hr * rr * tr + hi * rr * ti + hr * ri * ti - hi * ri * tr).sum();
  }

  // Adds scale * d score / d x to gh, gr, gt (each 2*d floats).
  static void AddGradients(const float* h, const float* r, const float* t, uint32_t d, float scale,
                           float* gh, float* gr, float* gt) {
    CVec hr(h, d), hi(h + d, d), rr(r, d), ri(r + d, d), tr(t, d), ti(t + d, d);
    Vec(gh, d) += scale * (rr * tr + ri * ti);
    Vec(gh + d, d) += scale * (rr * ti - ri * tr);
    Vec(gr, d) += scale * (hr * tr + hi * ti);
    Vec(gr + d, d) += scale * (hr * ti - hi * tr);
    Vec(gt, d) += scale * (hr * rr - hi * ri);
    Vec(gt + d, d) += scale * (hi * rr + hr * ri);
  }

  // q such that score(h, r, t) = q . t for every t (2*d floats).
  static void TailQuery(const float* h, const float* r, uint32_t d, float* q) {
    CVec hr(h, d), hi(h + d, d), rr(r, d), ri(r + d, d);
    Vec(q, d) = hr * rr - hi * ri;
    Vec(q + d, d) = hi * rr + hr * ri;
  }
  // p such that score(h, r, t) = p . h for every h (2*d floats).
  static void HeadQuery(const float* r, const float* t, uint32_t d, float* p) {
    CVec rr(r, d), ri(r + d, d), tr(t, d), ti(t + d, d);
    Vec(p, d) = rr * tr + ri * ti;
    Vec(p + d, d) = rr * ti - ri * tr;
  }
};

// Numerically stable log(1 + e^x) and the logistic function.
inline float Softplus(float x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}
inline float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// d loss / d score of the logistic loss for a true (label 1) or negative (0) triple.
inline float LogisticGrad(float score, bool positive) {
  return positive ? -Sigmoid(-score) : Sigmoid(score);
}
inline float LogisticLoss(float score, bool positive) {
  return positive ? Softplus(-score) : Softplus(score);
}

}  // namespace augur

// Skip-gram with negative sampling (Mikolov et al., 2013): the SGD step on
// raw rows, shared by the single-node trainer and the PS job.
//
// For a (center, context) pair with label 1 and negatives with label 0:
// loss = softplus(-in.out_ctx) + sum softplus(in.out_neg). Step: every output
// row is updated at once (out -= lr * g * in); the center's gradient is
// accumulated in `in_grad` so the caller applies it once per pair group
// (as word2vec.c does). Pure functions over caller-owned memory; thread-safe
// as far as the rows are (Hogwild callers accept benign races).
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "experiments/kge/complex_model.h"

namespace augur {

// One (center, output-row) term. Returns its loss; out is updated in place by
// -lr * g * in, and in_grad accumulates g * out (before the update).
inline float SgnsTerm(const float* in, float* out, uint32_t d, bool positive, float lr,
                      float* in_grad) {
  Eigen::Map<const Eigen::VectorXf> vin(in, d);
  Eigen::Map<Eigen::VectorXf> vout(out, d), grad(in_grad, d);
  const float s = vin.dot(vout);
  const float g = LogisticGrad(s, positive);
  grad += g * vout;
  vout -= (lr * g) * vin;
  return LogisticLoss(s, positive);
}

// Loss of one term without updating anything.
inline float SgnsLoss(const float* in, const float* out, uint32_t d, bool positive) {
  Eigen::Map<const Eigen::VectorXf> vin(in, d), vout(out, d);
  return LogisticLoss(vin.dot(vout), positive);
}

}  // namespace augur

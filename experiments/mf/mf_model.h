// Matrix factorization by SGD on squared error with L2 regularisation:
// loss(r, u, v) = (r - u.v)^2 + reg * (|u|^2 + |v|^2). Shared by the
// single-node trainer and the PS job. Pure functions; thread-safe.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace augur {

inline float MfPredict(const float* u, const float* v, uint32_t k) {
  return Eigen::Map<const Eigen::VectorXf>(u, k).dot(Eigen::Map<const Eigen::VectorXf>(v, k));
}

// Gradient halves (d loss / 2): gu = -(err) v + reg u, gv = -(err) u + reg v,
// err = r - u.v. Writes into gu, gv (k floats each); returns err.
inline float MfGradients(float rating, const float* u, const float* v, uint32_t k, float reg,
                         float* gu, float* gv) {
  Eigen::Map<const Eigen::VectorXf> vu(u, k), vv(v, k);
  const float err = rating - vu.dot(vv);
  Eigen::Map<Eigen::VectorXf>(gu, k) = -err * vv + reg * vu;
  Eigen::Map<Eigen::VectorXf>(gv, k) = -err * vu + reg * vv;
  return err;
}

}  // namespace augur

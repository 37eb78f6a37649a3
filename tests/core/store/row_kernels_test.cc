// Row kernels (core/store/row_kernels.h): whichever ISA's clone the CPU
// picks gives, bit for bit, what the plain scalar loop gives, at lengths
// around every vector width and at unaligned starts. Unit label.
#include "core/store/row_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/base/rng.h"
#include "core/store/optimizer.h"

namespace augur {
namespace {

std::vector<float> Random(Rng& rng, size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (float& x : v) x = lo + (hi - lo) * static_cast<float>(rng.Uniform());
  return v;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  return a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// The definitions the kernels must match, compiled here for the build's
// baseline ISA (the kernels run the CPU's best clone).
void ScalarAdd(float* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] += s[i];
}
void ScalarAddScaled(float* d, float a, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] += a * s[i];
}
void ScalarAddSquares(float* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] += s[i] * s[i];
}
void ScalarAdaGrad(float* v, float* acc, const float* g, const float* q, float lr, float eps,
                   uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    acc[i] += q != nullptr ? q[i] : g[i] * g[i];
    v[i] -= lr * g[i] / std::sqrt(acc[i] + eps);
  }
}

TEST_CASE("row kernels match the scalar loops bit for bit", "[store]") {
  Rng rng(11);
  for (uint32_t len : {0u, 1u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 32u, 50u, 100u, 1001u}) {
    for (uint32_t skew : {0u, 1u, 3u}) {  // starts off the vector alignment
      CAPTURE(len, skew);
      const size_t n = len + skew;
      const std::vector<float> src = Random(rng, n, -2.0f, 2.0f);
      const std::vector<float> sq = Random(rng, n, 0.0f, 4.0f);
      const std::vector<float> dst0 = Random(rng, n, -1.0f, 1.0f);
      const std::vector<float> acc0 = Random(rng, n, 0.0f, 1.0f);

      std::vector<float> a = dst0, b = dst0;
      AddRow(a.data() + skew, src.data() + skew, len);
      ScalarAdd(b.data() + skew, src.data() + skew, len);
      CHECK(SameBits(a, b));

      a = dst0, b = dst0;
      AddScaledRow(a.data() + skew, -0.025f, src.data() + skew, len);
      ScalarAddScaled(b.data() + skew, -0.025f, src.data() + skew, len);
      CHECK(SameBits(a, b));

      a = acc0, b = acc0;
      AddSquaresRow(a.data() + skew, src.data() + skew, len);
      ScalarAddSquares(b.data() + skew, src.data() + skew, len);
      CHECK(SameBits(a, b));

      a = dst0, b = dst0;
      SquaresRow(a.data() + skew, src.data() + skew, len);
      for (uint32_t i = 0; i < len; ++i) b[skew + i] = src[skew + i] * src[skew + i];
      CHECK(SameBits(a, b));

      a = dst0, b = dst0;
      ScaledDifferenceRow(a.data() + skew, src.data() + skew, sq.data() + skew, 40.0f, len);
      for (uint32_t i = 0; i < len; ++i) b[skew + i] = (src[skew + i] - sq[skew + i]) * 40.0f;
      CHECK(SameBits(a, b));

      for (const float* squares : {static_cast<const float*>(nullptr), sq.data() + skew}) {
        std::vector<float> va = dst0, vb = dst0, aa = acc0, ab = acc0;
        AdaGradRow(va.data() + skew, aa.data() + skew, src.data() + skew, squares, 0.1f, 1e-10f,
                   len);
        ScalarAdaGrad(vb.data() + skew, ab.data() + skew, src.data() + skew, squares, 0.1f, 1e-10f,
                      len);
        CHECK(SameBits(va, vb));
        CHECK(SameBits(aa, ab));
      }
    }
  }
}

TEST_CASE("an SGD step through the kernels is value - lr * gradient exactly", "[store]") {
  Rng rng(12);
  OptimizerConfig o;
  o.kind = OptimizerKind::kSgd;
  o.learning_rate = 0.0371f;
  const std::vector<float> g = Random(rng, 100, -3.0f, 3.0f);
  std::vector<float> v = Random(rng, 100, -1.0f, 1.0f);
  std::vector<float> expected = v;
  for (size_t i = 0; i < v.size(); ++i) expected[i] = expected[i] - o.learning_rate * g[i];
  ApplyUpdate(o, v.data(), nullptr, g.data(), 100);
  CHECK(SameBits(v, expected));
}

}  // namespace
}  // namespace augur

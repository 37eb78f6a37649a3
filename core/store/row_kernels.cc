#include "core/store/row_kernels.h"

#include <cmath>

// One body per kernel, cloned per ISA by the compiler (an ifunc resolved at
// load time). Under ThreadSanitizer the clones' resolver runs before its
// runtime is up and crashes the program, so that build keeps one version.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AUGUR_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define AUGUR_TSAN 1
#endif
#if defined(__x86_64__) && !defined(AUGUR_TSAN)
#define AUGUR_ROW_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define AUGUR_ROW_KERNEL
#endif

namespace augur {

AUGUR_ROW_KERNEL void AddRow(float* dst, const float* src, uint32_t len) {
  float* __restrict d = dst;
  const float* __restrict s = src;
  for (uint32_t i = 0; i < len; ++i) d[i] += s[i];
}

AUGUR_ROW_KERNEL void AddScaledRow(float* dst, float a, const float* src, uint32_t len) {
  float* __restrict d = dst;
  const float* __restrict s = src;
  for (uint32_t i = 0; i < len; ++i) d[i] += a * s[i];
}

AUGUR_ROW_KERNEL void AddSquaresRow(float* dst, const float* src, uint32_t len) {
  float* __restrict d = dst;
  const float* __restrict s = src;
  for (uint32_t i = 0; i < len; ++i) d[i] += s[i] * s[i];
}

AUGUR_ROW_KERNEL void SquaresRow(float* dst, const float* src, uint32_t len) {
  float* __restrict d = dst;
  const float* __restrict s = src;
  for (uint32_t i = 0; i < len; ++i) d[i] = s[i] * s[i];
}

AUGUR_ROW_KERNEL void ScaledDifferenceRow(float* dst, const float* a, const float* b, float scale,
                                          size_t len) {
  float* __restrict d = dst;
  const float* __restrict x = a;
  const float* __restrict y = b;
  for (size_t i = 0; i < len; ++i) d[i] = (x[i] - y[i]) * scale;
}

AUGUR_ROW_KERNEL void AdaGradRow(float* value, float* acc, const float* sum, const float* squares,
                                 float lr, float eps, uint32_t len) {
  float* __restrict v = value;
  float* __restrict a = acc;
  const float* __restrict g = sum;
  if (squares == nullptr) {
    for (uint32_t i = 0; i < len; ++i) {
      a[i] += g[i] * g[i];
      v[i] -= lr * g[i] / std::sqrt(a[i] + eps);
    }
    return;
  }
  const float* __restrict q = squares;
  for (uint32_t i = 0; i < len; ++i) {
    a[i] += q[i];
    v[i] -= lr * g[i] / std::sqrt(a[i] + eps);
  }
}

}  // namespace augur

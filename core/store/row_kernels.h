// Row kernels: the element-wise loops every optimizer step, delta and push
// runs on a row (optimizer.h), compiled once per instruction set and picked
// when the program loads (x86-64: AVX2 where the CPU has it, else the
// baseline SSE2; other architectures: one build). The project builds for
// baseline x86-64, so without this a row's add ran 4 lanes wide while
// glibc's memcpy, a pull's copy, runs 32-64 bytes wide: LocalPush/100 went
// from 0.55-0.60 of memcpy to 0.52-0.76 (medians 0.57 -> 0.67-0.73) with the
// clones, alternating on the AMD host
// (docs/measurements/2026-12-07-late-row-kernels.md).
//
// Every kernel is element-wise (no sums across lanes, no fused multiply-add:
// the build is strict ISO C++, which does not contract), so each ISA's
// version gives bit-identical results: simulator determinism and exact
// --verify do not depend on the CPU.
// The pointers of one call must not overlap (restrict). Thread-safety: pure
// functions of their arguments.
#pragma once

#include <cstddef>
#include <cstdint>

namespace augur {

// dst[i] += src[i]
void AddRow(float* dst, const float* src, uint32_t len);
// dst[i] += a * src[i]
void AddScaledRow(float* dst, float a, const float* src, uint32_t len);
// dst[i] += src[i] * src[i]
void AddSquaresRow(float* dst, const float* src, uint32_t len);
// dst[i] = src[i] * src[i]
void SquaresRow(float* dst, const float* src, uint32_t len);
// dst[i] = (a[i] - b[i]) * scale
void ScaledDifferenceRow(float* dst, const float* a, const float* b, float scale, size_t len);
// acc[i] += squares[i]; value[i] -= lr * sum[i] / sqrt(acc[i] + eps).
// One AdaGrad step of gradient g is AdaGradRow(value, acc, g, g*g (not
// materialised: squares == nullptr), ...).
void AdaGradRow(float* value, float* acc, const float* sum, const float* squares, float lr,
                float eps, uint32_t len);

}  // namespace augur

// Micro-benchmarks of the workloads' inner update steps (Google Benchmark):
// one ComplEx example (triple + negatives, gradients + AdaGrad), one SGNS
// pair, one MF rating. Each reports items/s; the memcpy of the rows the step
// touches is the reference measured in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "core/base/rng.h"
#include "core/store/optimizer.h"
#include "experiments/kge/complex_model.h"
#include "experiments/mf/mf_model.h"
#include "experiments/wv/sgns_model.h"

namespace augur {
namespace {

std::vector<float> Table(size_t rows, uint32_t len, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> t(rows * len);
  for (float& x : t) x = static_cast<float>(rng.Uniform() * 0.2 - 0.1);
  return t;
}

constexpr size_t kRows = 1 << 16;

// range(0): complex dim d.
void BM_ComplExExample(benchmark::State& state) {
  const uint32_t d = static_cast<uint32_t>(state.range(0));
  const uint32_t negatives = 10;
  const uint32_t len = 2 * d;
  std::vector<float> values = Table(kRows, len, 1), acc(values.size(), 0.0f);
  std::vector<float> grads((negatives + 3) * len);
  OptimizerConfig opt;
  opt.kind = OptimizerKind::kAdaGrad;
  Rng rng(2);
  for (auto _ : state) {
    std::fill(grads.begin(), grads.end(), 0.0f);
    size_t rows[13];
    for (uint32_t i = 0; i < negatives + 3; ++i) rows[i] = rng.Below(kRows) * len;
    float* h = &values[rows[0]];
    float* r = &values[rows[1]];
    float* t = &values[rows[2]];
    float* gh = &grads[0];
    float* gr = &grads[len];
    float* gt = &grads[2 * len];
    float s = ComplEx::Score(h, r, t, d);
    ComplEx::AddGradients(h, r, t, d, LogisticGrad(s, true), gh, gr, gt);
    for (uint32_t j = 0; j < negatives; ++j) {
      float* n = &values[rows[3 + j]];
      float* gn = &grads[(3 + j) * len];
      s = ComplEx::Score(h, r, n, d);
      ComplEx::AddGradients(h, r, n, d, LogisticGrad(s, false), gh, gr, gn);
    }
    for (uint32_t i = 0; i < negatives + 3; ++i)
      ApplyUpdate(opt, &values[rows[i]], &acc[rows[i]], &grads[i * len], len);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ComplExExample)->Arg(32)->Arg(64)->Arg(128);

void BM_SgnsPair(benchmark::State& state) {
  const uint32_t d = static_cast<uint32_t>(state.range(0));
  std::vector<float> in = Table(kRows, d, 3), out = Table(kRows, d, 4), grad(d);
  Rng rng(5);
  for (auto _ : state) {
    float* center = &in[rng.Below(kRows) * d];
    std::fill(grad.begin(), grad.end(), 0.0f);
    SgnsTerm(center, &out[rng.Below(kRows) * d], d, true, 0.025f, grad.data());
    for (int n = 0; n < 5; ++n)
      SgnsTerm(center, &out[rng.Below(kRows) * d], d, false, 0.025f, grad.data());
    for (uint32_t k = 0; k < d; ++k) center[k] -= 0.025f * grad[k];
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SgnsPair)->Arg(32)->Arg(100);

void BM_MfRating(benchmark::State& state) {
  const uint32_t k = static_cast<uint32_t>(state.range(0));
  std::vector<float> u = Table(kRows, k, 6), v = Table(kRows, k, 7), gu(k), gv(k);
  Rng rng(8);
  for (auto _ : state) {
    float* a = &u[rng.Below(kRows) * k];
    float* b = &v[rng.Below(kRows) * k];
    MfGradients(1.0f, a, b, k, 0.01f, gu.data(), gv.data());
    for (uint32_t i = 0; i < k; ++i) {
      a[i] -= 0.01f * gu[i];
      b[i] -= 0.01f * gv[i];
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MfRating)->Arg(32)->Arg(100);

// Reference: copying the 13 rows one ComplEx example touches (d = 64).
void BM_MemcpyComplExRows(benchmark::State& state) {
  const uint32_t len = 128;
  std::vector<float> values = Table(kRows, len, 9), buf(13 * len);
  Rng rng(10);
  for (auto _ : state) {
    for (int i = 0; i < 13; ++i)
      std::memcpy(&buf[i * len], &values[rng.Below(kRows) * len], len * sizeof(float));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MemcpyComplExRows);

}  // namespace
}  // namespace augur

BENCHMARK_MAIN();

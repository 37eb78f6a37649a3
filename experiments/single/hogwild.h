// Hogwild helpers for the single-node baselines (`augur single`): plain
// shared-memory multi-threaded training, no parameter server, no messages.
//
// Threads update the shared model rows without locks (Hogwild!, Recht et al.
// 2011): concurrent updates of the same row may interleave; that benign race
// is the method, and is why the single-node baselines are not run under TSan.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <functional>
#include <thread>
#include <vector>

#include "core/base/check.h"
#include "core/base/types.h"
#include "experiments/models/example_grads.h"

namespace augur {

// CPU time the calling thread has used, in seconds.
inline double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Runs body(thread) on `threads` threads (the caller's thread is thread 0).
// Returns the CPU seconds the threads spent in body, summed: unlike wall time,
// it does not grow when other processes compete for the cores.
inline double RunThreads(uint32_t threads, const std::function<void(uint32_t)>& body) {
  std::vector<double> cpu(threads, 0.0);
  auto timed = [&](uint32_t t) {
    const double start = ThreadCpuSeconds();
    body(t);
    cpu[t] = ThreadCpuSeconds() - start;
  };
  std::vector<std::thread> pool;
  for (uint32_t t = 1; t < threads; ++t) pool.emplace_back(timed, t);
  timed(0);
  for (std::thread& th : pool) th.join();
  double total = 0;
  for (double c : cpu) total += c;
  return total;
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace augur

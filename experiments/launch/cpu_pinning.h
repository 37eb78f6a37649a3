// CPU pinning for benchmarks and calibration: which CPUs this thread may run
// on, and keeping a thread on one of them (as a node on a machine of its own).
// Threading: each call affects the calling thread only, and the threads it
// starts afterwards (they inherit its affinity).
#pragma once

#include <sched.h>

#include <vector>

#include "core/base/status.h"

namespace augur {

// The CPUs the calling thread may run on, in ascending order (empty if the
// system does not say).
std::vector<int> AllowedCpus();

// Pins the calling thread to `cpu`. An error names the CPU.
Status PinToCpu(int cpu);

// Pins the calling thread to `cpu` for its own lifetime, then gives the
// thread back the affinity it had.
class ScopedCpuPin {
 public:
  explicit ScopedCpuPin(int cpu);
  ~ScopedCpuPin();
  ScopedCpuPin(const ScopedCpuPin&) = delete;
  ScopedCpuPin& operator=(const ScopedCpuPin&) = delete;

 private:
  cpu_set_t saved_;
  bool restore_ = false;
};

}  // namespace augur

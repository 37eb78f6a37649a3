#include "experiments/launch/cpu_pinning.h"

#include <string>

namespace augur {

std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

Status PinToCpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0)
    return Status::Error("cannot pin to CPU " + std::to_string(cpu));
  return Status::Ok();
}

ScopedCpuPin::ScopedCpuPin(int cpu) {
  restore_ = sched_getaffinity(0, sizeof(saved_), &saved_) == 0;
  (void)PinToCpu(cpu);  // unpinned, the measurement still runs, only less steadily
}

ScopedCpuPin::~ScopedCpuPin() {
  if (restore_) sched_setaffinity(0, sizeof(saved_), &saved_);
}

}  // namespace augur

#include "experiments/calibration/keep_cores_awake.h"

#include <pthread.h>
#include <sched.h>

namespace augur {

KeepCoresAwake::KeepCoresAwake(unsigned cores) {
  for (unsigned i = 0; i < cores; ++i) {
    spinners_.emplace_back([this] {
      sched_param p{};
      p.sched_priority = 0;
      if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &p) != 0) return;
      while (!stop_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__)
        __builtin_ia32_pause();
#endif
      }
    });
  }
}

KeepCoresAwake::~KeepCoresAwake() {
  stop_.store(true);
  for (std::thread& t : spinners_) t.join();
}

}  // namespace augur

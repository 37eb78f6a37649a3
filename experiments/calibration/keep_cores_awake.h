// KeepCoresAwake: while alive, one spinning thread per core at SCHED_IDLE, so
// no core halts between the messages of a latency measurement.
//
// Why: in a training run the workers keep every core busy, so a message wakes
// a thread on a running core. On an idle machine, and above all in a virtual
// machine (haltpoll), each message instead wakes a halted core, which costs
// tens of microseconds more and varies from run to run (measured on the 2-core
// VM: 36-92 us of CPU per 64 B one-way message idle, 19.3-19.5 us with the
// cores kept awake). SCHED_IDLE threads run only when nothing else is
// runnable, so they never delay the measured threads; their own CPU time is
// not the measured threads' (measure with thread CPU clocks, not the
// process's).
// Threading: construct and destroy on one thread; the spinners are internal.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace augur {

class KeepCoresAwake {
 public:
  explicit KeepCoresAwake(unsigned cores);
  ~KeepCoresAwake();
  KeepCoresAwake(const KeepCoresAwake&) = delete;
  KeepCoresAwake& operator=(const KeepCoresAwake&) = delete;

 private:
  // A thread the system refuses the idle policy does not spin: at normal
  // priority it would slow the measurement.
  std::atomic<bool> stop_{false};
  std::vector<std::thread> spinners_;
};

}  // namespace augur

// VirtualScheduler: deterministic discrete-event execution for the loopback runtime.
//
// Runs protocol events (message deliveries, timers) on the thread that calls
// Run(), and worker bodies on their own threads, but passes a baton so that
// exactly one context runs at any moment: worker code can block (Park) and
// charge compute time (Sleep) in plain sequential C++, and the whole
// execution is a deterministic function of the events' (time, sequence)
// order. Virtual time only moves between events.
//
// Threading: every method except Run() is called from the context holding
// the baton (the scheduler thread or the one running worker).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

#include "core/base/status.h"

namespace augur {

class VirtualScheduler {
 public:
  VirtualScheduler() = default;
  ~VirtualScheduler();
  VirtualScheduler(const VirtualScheduler&) = delete;
  VirtualScheduler& operator=(const VirtualScheduler&) = delete;

  double Now() const { return now_; }
  // Runs fn on the scheduler context at virtual time t (>= Now()).
  void At(double t, std::function<void()> fn);
  // Adds a worker context; it starts at time 0 once Run() is called.
  int Spawn(std::string name, std::function<void()> body);
  // The running worker's id, or -1 on the scheduler context.
  int Current() const { return running_; }

  // Worker context only: yield until Wake(id) is called.
  void Park();
  // Makes worker `id` runnable at the current time. REQUIRES: it is parked.
  void Wake(int id);
  // Worker context only: advance this worker's time by `seconds`.
  void Sleep(double seconds);

  // Runs until every worker has finished (events left then, such as periodic
  // timers, are dropped: nothing can wait for them any more). A state where
  // workers are parked with nothing left to wake them is a deadlock: the
  // error names the parked workers.
  Status Run();
  uint64_t events_processed() const { return events_; }

 private:
  struct Event {
    double time;
    uint64_t seq;
    int worker;  // >= 0: resume this worker; -1: call fn
    std::function<void()> fn;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  struct Context {
    std::string name;
    std::function<void()> body;
    std::thread thread;
    std::binary_semaphore resume{0};  // released to hand this context the baton
    bool started = false;
    bool parked = false;
    bool finished = false;
  };

  void Push(double t, int worker, std::function<void()> fn);
  void SwitchTo(int id);    // scheduler -> worker, returns when it yields
  void YieldToScheduler();  // worker -> scheduler, returns when resumed
  void ThreadMain(int id);

  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  std::vector<std::unique_ptr<Context>> contexts_;
  double now_ = 0;
  uint64_t seq_ = 0;
  uint64_t events_ = 0;
  size_t finished_ = 0;  // contexts whose body returned

  // Baton passing: exactly one of the scheduler and the contexts runs; the
  // semaphores' release/acquire order every hand-over (and its memory effects).
  std::binary_semaphore scheduler_resume_{0};
  int running_ = -1;  // who holds the baton
};

}  // namespace augur

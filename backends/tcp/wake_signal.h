// WakeSignal: a parked worker's permit, with a descriptor to poll on.
//
// Set() (any thread) grants the permit; while the owning worker is blocking
// (between BeginBlocking and EndBlocking) it also makes fd() readable, so a
// worker that waits in poll() on its sockets and on fd() wakes for a permit
// granted elsewhere. A Set() by the owner itself, or while the owner is not
// blocking, costs no system call.
#pragma once

#include <mutex>

namespace augur::tcp {

class WakeSignal {
 public:
  WakeSignal();
  ~WakeSignal();
  WakeSignal(const WakeSignal&) = delete;
  WakeSignal& operator=(const WakeSignal&) = delete;

  void Set();
  // Owner: consumes the permit if it is set.
  bool Take();
  // Owner: false if the permit is set; else fd() signals Set() until EndBlocking().
  bool BeginBlocking();
  void EndBlocking();
  int fd() const { return fd_; }

 private:
  const int fd_;  // eventfd
  std::mutex mu_;
  bool permit_ = false;    // guarded by mu_
  bool blocking_ = false;  // guarded by mu_
  bool signaled_ = false;  // guarded by mu_: fd_ holds a count to drain
};

}  // namespace augur::tcp

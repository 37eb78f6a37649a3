// SpinLock: a tiny test-and-test-and-set lock for the store's stripes.
//
// Why a spin lock in core/: the store's critical sections are a few hundred
// nanoseconds (copy or add one value row) and never call into the runtime, so
// they are safe under every runtime: real threads (brief contention; a
// spinner yields the core after a while through the runtime's SpinYield),
// SimGrid actors and the loopback scheduler (cooperative, so never
// contended). It needs no OS primitive, which keeps core/ free of
// <mutex>/<thread>.
// Satisfies BasicLockable; LockGuard is the scoped holder.
#pragma once

#include <atomic>

#include "core/base/spin_yield.h"

namespace augur {

class SpinLock {
 public:
  // Set before the lock is shared between threads.
  void set_yield(SpinYield yield) { yield_ = yield; }

  void lock() {
    constexpr int kSpinsBeforeYield = 64;
    for (;;) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      int spins = 0;
      while (locked_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (++spins == kSpinsBeforeYield && yield_ != nullptr) {
          yield_();
          spins = 0;
        }
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
  SpinYield yield_ = nullptr;
};

// Scoped holder for any BasicLockable (core/ avoids <mutex>).
template <typename L>
class LockGuard {
 public:
  explicit LockGuard(L& lock) : lock_(lock) { lock_.lock(); }
  ~LockGuard() { lock_.unlock(); }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;

 private:
  L& lock_;
};

}  // namespace augur

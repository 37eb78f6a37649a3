// SpinLock: a tiny test-and-test-and-set lock for the store's stripes.
//
// Why a spin lock in core/: the store's critical sections are a few hundred
// nanoseconds (copy or add one value row) and never call into the runtime, so
// they are safe under every runtime: real threads (brief contention), SimGrid
// actors and the loopback scheduler (cooperative, so never contended). It
// needs no OS primitive, which keeps core/ free of <mutex>/<thread>.
// Satisfies BasicLockable; LockGuard is the scoped holder.
#pragma once

#include <atomic>

namespace augur {

class SpinLock {
 public:
  void lock() {
    for (;;) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
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

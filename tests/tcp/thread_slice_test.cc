// ThreadSlice: a thread's slice is set, read back, reset, and refused out of
// range, each on a thread of its own; the thread's nice value survives. On a
// kernel without per-thread slices (before 6.12) the setter says so and the
// thread reports none. A thread under another policy is left alone.
#include "backends/tcp/thread_slice.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <thread>

namespace augur::tcp {
namespace {

// Runs f on a fresh thread (so no test changes the runner's own scheduling).
template <typename F>
void OnThread(F&& f) {
  std::thread t(std::forward<F>(f));
  t.join();
}

TEST_CASE("a thread's slice is set, read back and reset", "[tcp][thread_slice]") {
  OnThread([] {
    Result<SliceOutcome> set = SetThreadSlice(250e-6);
    REQUIRE(set.ok());
    Result<double> slice = ThreadSlice();
    REQUIRE(slice.ok());
    if (*set == SliceOutcome::kApplied) {
      CHECK(std::llround(*slice * 1e9) == 250000);
      Result<SliceOutcome> reset = SetThreadSlice(0);
      REQUIRE(reset.ok());
      CHECK(*reset == SliceOutcome::kApplied);
      Result<double> after = ThreadSlice();
      REQUIRE(after.ok());
      CHECK(std::llround(*after * 1e9) != 250000);  // the kernel's default again
    } else {
      CHECK(*set == SliceOutcome::kKernelIgnores);
      CHECK(*slice == 0);
    }
  });
}

TEST_CASE("setting a slice keeps the thread's nice value", "[tcp][thread_slice]") {
  OnThread([] {
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    REQUIRE(setpriority(PRIO_PROCESS, tid, 7) == 0);  // lowering one's priority needs no rights
    REQUIRE(SetThreadSlice(1e-3).ok());
    errno = 0;
    CHECK(getpriority(PRIO_PROCESS, tid) == 7);
    CHECK(errno == 0);
  });
}

TEST_CASE("a thread under another policy is left alone, and reset-on-fork is kept",
          "[tcp][thread_slice]") {
  OnThread([] {
    sched_param none{};
    REQUIRE(sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &none) == 0);
    REQUIRE(SetThreadSlice(300e-6).ok());
    CHECK(sched_getscheduler(0) == (SCHED_OTHER | SCHED_RESET_ON_FORK));
  });
  OnThread([] {
    sched_param none{};
    REQUIRE(sched_setscheduler(0, SCHED_IDLE, &none) == 0);  // no rights needed
    Result<SliceOutcome> r = SetThreadSlice(300e-6);
    REQUIRE(r.ok());
    CHECK(*r == SliceOutcome::kNotFairPolicy);
    CHECK(sched_getscheduler(0) == SCHED_IDLE);
  });
}

TEST_CASE("a slice outside [100us, 100ms] is refused and nothing changes", "[tcp][thread_slice]") {
  CHECK(ValidThreadSlice(0));
  CHECK(ValidThreadSlice(100e-6));
  CHECK(ValidThreadSlice(0.1));
  CHECK_FALSE(ValidThreadSlice(99e-6));
  CHECK_FALSE(ValidThreadSlice(0.2));
  CHECK_FALSE(ValidThreadSlice(-1e-3));
  CHECK_FALSE(ValidThreadSlice(std::nan("")));
  OnThread([] {
    Result<double> before = ThreadSlice();
    REQUIRE(before.ok());
    for (double bad : {50e-6, 0.5, -1.0}) {
      Result<SliceOutcome> r = SetThreadSlice(bad);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().message().find("[100us, 100ms]") != std::string::npos);
    }
    Result<double> after = ThreadSlice();
    REQUIRE(after.ok());
    CHECK(*after == *before);
  });
}

}  // namespace
}  // namespace augur::tcp

#include "backends/tcp/thread_slice.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace augur::tcp {

namespace {

// The kernel's struct sched_attr (uapi linux/sched/types.h, whose header
// clashes with <sched.h>'s sched_param): its first published size, 48 bytes,
// and the utilisation clamps after it. glibc 2.36 wraps neither call.
struct SchedAttr {
  uint32_t size;
  uint32_t sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime;  // SCHED_OTHER/SCHED_BATCH: the slice, in ns (Linux 6.12+)
  uint64_t sched_deadline;
  uint64_t sched_period;
  uint32_t sched_util_min;
  uint32_t sched_util_max;
};
constexpr uint32_t kSchedAttrSizeVer0 = 48;
constexpr uint64_t kResetOnFork = 0x01;  // SCHED_FLAG_RESET_ON_FORK
static_assert(offsetof(SchedAttr, sched_util_min) == kSchedAttrSizeVer0);

Result<SchedAttr> GetAttr() {
  SchedAttr a{};
  if (syscall(SYS_sched_getattr, 0, &a, static_cast<unsigned>(sizeof(a)), 0u) != 0)
    return Status::Error(std::string("sched_getattr failed: ") + std::strerror(errno));
  return a;
}

bool FairPolicy(uint32_t policy) { return policy == SCHED_OTHER || policy == SCHED_BATCH; }

int64_t Nanoseconds(double seconds) { return std::llround(seconds * 1e9); }

}  // namespace

const char* SliceOutcomeName(SliceOutcome outcome) {
  switch (outcome) {
    case SliceOutcome::kApplied:
      return "applied";
    case SliceOutcome::kKernelIgnores:
      return "ignored by this kernel (per-thread slices need Linux 6.12 or later)";
    case SliceOutcome::kNotFairPolicy:
      return "not applied: the thread's policy is not SCHED_OTHER or SCHED_BATCH";
  }
  return "?";
}

bool ValidThreadSlice(double seconds) {
  if (!std::isfinite(seconds)) return false;
  const int64_t ns = Nanoseconds(seconds);
  return ns == 0 ||
         (ns >= Nanoseconds(kMinThreadSliceSeconds) && ns <= Nanoseconds(kMaxThreadSliceSeconds));
}

Result<SliceOutcome> SetThreadSlice(double seconds) {
  if (!ValidThreadSlice(seconds))
    return Status::Error("a thread's slice must be 0 or within [100us, 100ms], not " +
                         std::to_string(seconds) + " s");
  Result<SchedAttr> now = GetAttr();
  if (!now.ok()) return now.status();
  if (!FairPolicy(now->sched_policy)) return SliceOutcome::kNotFairPolicy;
  SchedAttr a{};
  a.size = kSchedAttrSizeVer0;
  a.sched_policy = now->sched_policy;
  a.sched_nice = now->sched_nice;  // sched_setattr sets the nice value too: keep it
  a.sched_flags = now->sched_flags & kResetOnFork;  // and clears the flags it is not given
  a.sched_runtime = static_cast<uint64_t>(Nanoseconds(seconds));
  if (syscall(SYS_sched_setattr, 0, &a, 0u) != 0)
    return Status::Error(std::string("sched_setattr failed: ") + std::strerror(errno));
  if (seconds == 0) return SliceOutcome::kApplied;  // the default: nothing to compare
  Result<SchedAttr> after = GetAttr();
  if (!after.ok()) return after.status();
  return after->sched_runtime == a.sched_runtime ? SliceOutcome::kApplied
                                                 : SliceOutcome::kKernelIgnores;
}

Result<double> ThreadSlice() {
  Result<SchedAttr> a = GetAttr();
  if (!a.ok()) return a.status();
  return FairPolicy(a->sched_policy) ? static_cast<double>(a->sched_runtime) * 1e-9 : 0.0;
}

}  // namespace augur::tcp

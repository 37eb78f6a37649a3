// ThreadSlice: the calling thread's time slice under Linux's fair scheduler.
//
// Since Linux 6.12 the fair scheduler (EEVDF) takes a per-thread slice
// (sched_setattr's sched_runtime for SCHED_OTHER and SCHED_BATCH): a thread
// with a shorter slice gets an earlier virtual deadline when it wakes, so it
// preempts a thread that is computing instead of waiting for that thread's
// slice to end. A node's I/O thread asks for one (TcpOptions::io_slice_seconds):
// it sleeps most of the time and, woken by a peer's message, should answer at
// once rather than after the workers that fill the node's cores (on this
// 2-core VM that wait delayed relocations past the intent's lead and left
// workers waiting for late keys). The thread's policy, nice value and
// reset-on-fork flag are kept; a thread under another policy (real-time,
// deadline, idle) is left alone.
//
// Threading: each call reads or changes the calling thread only.
#pragma once

#include "core/base/status.h"

namespace augur::tcp {

// The slices the kernel accepts (it clamps to [0.1 ms, 100 ms]).
inline constexpr double kMinThreadSliceSeconds = 100e-6;
inline constexpr double kMaxThreadSliceSeconds = 0.1;

enum class SliceOutcome {
  kApplied,        // the thread now runs with that slice (0: the kernel's default)
  kKernelIgnores,  // accepted but not honoured: a kernel without custom slices (< 6.12)
  kNotFairPolicy,  // not SCHED_OTHER or SCHED_BATCH (real-time, deadline, idle): left alone
};
const char* SliceOutcomeName(SliceOutcome outcome);

// 0, or within [kMinThreadSliceSeconds, kMaxThreadSliceSeconds] to the nanosecond.
bool ValidThreadSlice(double seconds);

// Sets the calling thread's slice; 0 returns it to the kernel's default.
// Error: not ValidThreadSlice(seconds), or the system call failed (e.g. a seccomp filter refusing
// it), with its reason.
Result<SliceOutcome> SetThreadSlice(double seconds);

// The calling thread's slice in seconds as the kernel reports it: its own,
// else the kernel's default (1.4 ms on the 2-core development VM); 0 on a
// kernel without per-thread slices.
Result<double> ThreadSlice();

}  // namespace augur::tcp

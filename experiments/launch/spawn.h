// SpawnProcess: starts a program as a child process with posix_spawn, its
// stdout and stderr on a given descriptor; WaitProcess reaps it.
//
// posix_spawn does not run our code between fork and exec, so nothing is
// allocated or locked in the child (a fork from a process with threads may
// only call async-signal-safe functions until exec). The one place Augur
// starts processes: `augur launch` (ProcessGroup), `augur compare` and
// `augur calibrate` (RunChild). Any thread; the caller owns the pid.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

// The descriptor number under which a child sees the `pass_fd` it was given.
inline constexpr int kPassedFd = 3;

// Runs argv[0] (searched in PATH when it has no '/') with argv, stdout and
// stderr both on `output_fd` (left open in the parent). With pass_fd >= 0
// the child also inherits that descriptor as kPassedFd (nothing else of
// ours: the parent's descriptors are close-on-exec). Error if it could not
// be started, naming the program; a missing program is an error here, not a
// child exit code.
Result<pid_t> SpawnProcess(const std::vector<std::string>& argv, int output_fd, int pass_fd = -1);

// The child's exit code (128 + signal if a signal ended it). With
// `block` false, -1 while it still runs. Error only if waitpid fails.
Result<int> WaitProcess(pid_t pid, bool block = true);

}  // namespace augur

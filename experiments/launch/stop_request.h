// StopRequest: SIGTERM and SIGINT as a request to stop, for a command that
// waits for child runs and must clean up after itself (`augur calibrate`
// removes its temporary directory), instead of dying at once.
//
// InstallStopRequest() replaces the two signals' handlers, process-wide.
// The handler only records the signal and forwards SIGTERM to the child
// being waited for (async-signal-safe: kill(2)); RunChild (compare/
// child_run.h) marks that child, starts no new one once a stop is
// requested, and reports "interrupted". The caller then cleans up and exits
// with 128 + the signal. Without InstallStopRequest nothing changes. The
// state is process-wide by nature (a signal is), in two atomics.
#pragma once

#include <sys/types.h>

#include <string>

namespace augur {

// Call once, from the main thread, before the first child starts.
void InstallStopRequest();

// 0, or the signal (SIGTERM, SIGINT) that asked to stop.
int StopRequested();

// The child process being waited for (0: none): it gets SIGTERM on a stop
// request. Returns StopRequested(), so a request that came before this
// call is not missed (the caller then stops the child itself).
int SetWaitedChild(pid_t pid);

// The stop signal's name for a message: "SIGINT" or "SIGTERM".
std::string StopSignalName(int sig);

}  // namespace augur

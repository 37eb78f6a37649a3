// RunChild: runs one augur subcommand as a child process of this binary,
// its stdout and stderr appended to a log file, and waits for it.
//
// The child is this executable (/proc/self/exe), so a crash or a hang-up in
// one run cannot take the comparison down with it. Blocking; one caller.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

struct ChildOutcome {
  int exit_code = -1;  // 128 + signal if killed by one
  double wall_seconds = 0;
};

// Runs `self args...` with output to log_path (created; its first line is
// the command). Error if it could not be started, or "interrupted
// (SIGTERM)" once a stop was requested (launch/stop_request.h: the child
// then got SIGTERM, or was not started); a failing child is a non-zero
// exit_code.
Result<ChildOutcome> RunChild(const std::vector<std::string>& args, const std::string& log_path);

// The last `lines` lines of a text file ("" if unreadable), for error messages.
std::string TailOfFile(const std::string& path, int lines);

// This executable's path.
std::string SelfExecutable();

}  // namespace augur

// ProcessGroup: child processes whose output is streamed with a label prefix.
//
// Each child runs argv (SpawnProcess, launch/spawn.h: PATH is searched) with stdout and stderr on
// one pipe; Wait() copies their lines to our stdout as "[LABEL] line", reaps them, and, once one
// child has failed, kills the survivors after `kill_after_seconds` (they
// should have stopped on their own by then: peer loss is detected within
// --peer-timeout); once every child exited, stops reading an output still
// held open (by a process a child started and did not wait for) after the
// same time. Used by one thread.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

class ProcessGroup {
 public:
  ProcessGroup() = default;
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;
  ~ProcessGroup();  // kills children still running

  // pass_fd: a descriptor the child inherits as kPassedFd (spawn.h), or -1.
  Status Spawn(const std::string& label, const std::vector<std::string>& argv, int pass_fd = -1);
  // Returns each child's exit code in spawn order (128+signal if killed).
  std::vector<int> Wait(double kill_after_seconds);

 private:
  struct Child {
    std::string label;
    pid_t pid = -1;
    int fd = -1;          // read end of its output pipe, -1 once at EOF
    std::string partial;  // an unfinished output line
    int exit_code = -1;   // -1 while running
  };
  void Drain(Child& c, bool eof);

  std::vector<Child> children_;
};

}  // namespace augur

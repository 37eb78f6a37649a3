// ProcessGroup: child processes whose output is streamed with a label prefix.
//
// Each child runs argv (SpawnProcess, launch/spawn.h: PATH is searched) with stdout and stderr on
// one pipe; Wait() copies their lines to our stdout as "[LABEL] line", reaps them, and, once one
// child has failed, kills the survivors after `kill_after_seconds` (they
// should have stopped on their own by then: peer loss is detected within
// --peer-timeout); once every child exited, stops reading an output still
// held open (by a process a child started and did not wait for) after the
// same time.
// A child may be watched for joining its cluster (JoinWatch: a marker its
// output prints when it begins to join). One that exited before it printed
// it, when the cluster cannot form without it (it failed, or another began
// to join and would wait for it), is reported at once ("[launch] rank 1 (pid
// P, PROGRAM) exited with code C before it joined the cluster") and the
// others are killed. With a join timeout, the children still running that
// have not printed theirs by then are named (join_failure()) and every child
// is killed.
// Used by one thread.
#pragma once

#include <sys/types.h>

#include <optional>
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

  // How a child shows that it began to join its cluster: an output line
  // containing `marker`. `program` names it in messages ("sleep 30").
  struct JoinWatch {
    std::string marker;
    std::string program;
  };

  // pass_fd: a descriptor the child inherits as kPassedFd (spawn.h), or -1.
  Status Spawn(const std::string& label, const std::vector<std::string>& argv, int pass_fd = -1,
               std::optional<JoinWatch> join = std::nullopt);
  // Returns each child's exit code in spawn order (128+signal if killed).
  // join_timeout_seconds > 0: after that long, watched children still
  // running that have not begun to join end the wait (join_failure()).
  std::vector<int> Wait(double kill_after_seconds, double join_timeout_seconds = 0);
  // After Wait: why it killed the children early, one line ("rank 0 (pid
  // 12, sleep 30) did not join ..."), or empty.
  const std::string& join_failure() const { return join_failure_; }

 private:
  struct Child {
    std::string label;
    pid_t pid = -1;
    int fd = -1;          // read end of its output pipe, -1 once at EOF
    std::string partial;  // an unfinished output line
    int exit_code = -1;   // -1 while running
    std::optional<JoinWatch> join;
    bool joined = false;  // its output showed join->marker
  };
  void Drain(Child& c, bool eof);
  void ReadAvailable(Child& c);  // what its pipe holds now, without blocking
  void ReadOnce(Child& c);       // one read of its readable pipe; at its end, closes it
  std::string Describe(const Child& c) const;  // "rank 1 (pid 12, sleep 30)"
  // A watched child that exited before it began to join, where the cluster
  // cannot form without it (it failed, or another rank began to join and
  // would wait for it): reported once (join_failure_); true if children
  // still run, which must then be stopped.
  bool ExitedBeforeJoining();
  // The join timeout passed: names the watched children not joined (empty if none).
  std::string NotJoined(double join_timeout_seconds) const;
  void KillRunning(const char* why);

  std::vector<Child> children_;
  std::string join_failure_;
};

}  // namespace augur

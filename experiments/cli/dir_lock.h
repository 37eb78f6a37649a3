// DirLock: an advisory lock on a directory a run writes into (--out,
// --checkpoint-dir), held for the run's lifetime, so two runs sharing one
// directory at the same time do not overwrite each other unnoticed.
//
// The lock is flock(2) on DIR/.augur-lock, which holds the owner's pid. The
// kernel releases it when the process ends, however it ends (SIGKILL
// included); the file stays (removing it would let a third run lock a new
// file while a second still holds the old one). Per directory: augur
// compare's and calibrate's child runs write into subdirectories of their
// own and lock those. The ranks of one TCP cluster share its directories:
// only rank 0 locks them (cmd_run). Owned by the command that runs; not
// thread-safe; move-only.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/config/run_config.h"

namespace augur {

class DirLock {
 public:
  // Creates DIR if needed, then locks it. Error, one line: "DIR is in use by
  // another augur run (pid N)" (*in_use set, if given), or why DIR cannot
  // be created or locked.
  static Result<DirLock> Acquire(const std::string& dir, bool* in_use = nullptr);

  DirLock(DirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  DirLock& operator=(DirLock&& other) noexcept;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock() { Release(); }

  // Unlocks now (before starting a process that must lock DIR itself).
  void Release();

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Locks a run's --out and --checkpoint-dir (the same directory once), for
// as long as *locks lives. Error (prefixed by the flag): a directory in use
// by another run, or one that cannot be created or written into. One that
// cannot be locked (flock refused) is left unlocked.
Status LockRunDirs(const RunConfig& config, std::vector<DirLock>* locks);

}  // namespace augur

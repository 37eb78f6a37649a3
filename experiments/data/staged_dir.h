// StagedDir: builds an output directory in a temporary sibling and moves it
// into place only when everything was written, so a failed `augur data ...`
// leaves nothing behind.
//
// Begin(DIR) creates DIR's parent and a fresh DIR.tmp-PID next to it; writers
// fill path(); Commit() renames it to DIR. An existing DIR is replaced only if
// it is empty or holds an augur data set (a meta.json whose "format" starts
// with "augur-"); anything else is refused before any work is done. The
// destructor removes the temporary directory unless Commit() succeeded.
// Ownership: owns the temporary directory. Threading: one user; the final
// rename is atomic, so concurrent readers never see half a data set.
#pragma once

#include <string>

#include "core/base/status.h"

namespace augur {

class StagedDir {
 public:
  // Error when DIR cannot be replaced or the temporary directory not created.
  static Result<StagedDir> Begin(const std::string& dir);

  StagedDir(StagedDir&& other) noexcept;
  StagedDir& operator=(StagedDir&&) = delete;
  StagedDir(const StagedDir&) = delete;
  ~StagedDir();

  // The temporary directory to write into.
  const std::string& path() const { return tmp_; }
  // Moves path() to the final directory (replacing an old data set there).
  Status Commit();

 private:
  StagedDir(std::string dir, std::string tmp) : dir_(std::move(dir)), tmp_(std::move(tmp)) {}
  std::string dir_, tmp_;
  bool done_ = false;
};

}  // namespace augur

#include "experiments/cli/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace augur {

namespace {

constexpr const char* kLockFile = ".augur-lock";

// The pid the holder wrote, or "unknown" (it may not have written it yet).
std::string HolderPid(int fd) {
  char buf[32] = {};
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  std::string pid(buf, n > 0 ? static_cast<size_t>(n) : 0);
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? "unknown" : pid;
}

}  // namespace

Result<DirLock> DirLock::Acquire(const std::string& dir, bool* in_use) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error(dir + ": cannot create it: " + ec.message());
  const std::string path = dir + "/" + kLockFile;
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (in_use != nullptr) *in_use = err == EWOULDBLOCK;
    std::string message = err == EWOULDBLOCK
                              ? dir + " is in use by another augur run (pid " + HolderPid(fd) + ")"
                              : "cannot lock " + path + ": " + std::strerror(err);
    close(fd);
    return Status::Error(message);
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // The lock holds without the pid: a second run reports "pid unknown".
  }
  return DirLock(fd);
}

DirLock& DirLock::operator=(DirLock&& other) noexcept {
  if (this != &other) {
    Release();
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

void DirLock::Release() {
  if (fd_ >= 0) close(fd_);  // closing the only descriptor releases the flock
  fd_ = -1;
}

Status LockRunDirs(const RunConfig& config, std::vector<DirLock>* locks) {
  std::error_code ec;
  auto lock = [locks](const std::string& dir, const char* flag) -> Status {
    // A directory the run cannot create or write into is refused now: the
    // run found out only where it wrote there, after training (exit 1).
    std::error_code made;
    std::filesystem::create_directories(dir, made);
    if (made) return Status::Error(dir + ": cannot create it: " + made.message()).WithContext(flag);
    if (access(dir.c_str(), W_OK | X_OK) != 0)
      return Status::Error(dir + ": cannot write into it: " + std::strerror(errno))
          .WithContext(flag);
    bool in_use = false;
    Result<DirLock> l = DirLock::Acquire(dir, &in_use);
    if (l.ok()) locks->push_back(std::move(*l));
    return in_use ? l.status().WithContext(flag) : Status::Ok();
  };
  std::string out_abs;
  if (!config.out_dir.empty()) {
    if (Status s = lock(config.out_dir, "--out"); !s.ok()) return s;
    out_abs = std::filesystem::weakly_canonical(config.out_dir, ec).string();
  }
  if (!config.checkpoint_dir.empty() &&
      std::filesystem::weakly_canonical(config.checkpoint_dir, ec).string() != out_abs) {
    if (Status s = lock(config.checkpoint_dir, "--checkpoint-dir"); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace augur

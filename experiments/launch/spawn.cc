#include "experiments/launch/spawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

extern char** environ;

namespace augur {

Result<pid_t> SpawnProcess(const std::vector<std::string>& argv, int output_fd, int pass_fd) {
  if (argv.empty()) return Status::Error("cannot start a process: no program given");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  if (int e = posix_spawn_file_actions_init(&actions); e != 0)
    return Status::Error(std::string("posix_spawn_file_actions_init: ") + std::strerror(e));
  int e = posix_spawn_file_actions_adddup2(&actions, output_fd, STDOUT_FILENO);
  if (e == 0) e = posix_spawn_file_actions_adddup2(&actions, output_fd, STDERR_FILENO);
  // After the output's dup2s, so an output_fd of kPassedFd has been copied
  // first; dup2 leaves the copy without close-on-exec. A pass_fd that is
  // kPassedFd already is copied elsewhere first: dup2 onto itself would keep
  // its close-on-exec flag.
  int copy = -1;
  if (e == 0 && pass_fd == kPassedFd) {
    copy = fcntl(pass_fd, F_DUPFD_CLOEXEC, kPassedFd + 1);
    if (copy < 0) e = errno;
    pass_fd = copy;
  }
  if (e == 0 && pass_fd >= 0) e = posix_spawn_file_actions_adddup2(&actions, pass_fd, kPassedFd);
  // Buffered output of ours must not appear twice or after the child's.
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = -1;
  if (e == 0) e = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (copy >= 0) close(copy);
  if (e != 0) return Status::Error("cannot execute " + argv[0] + ": " + std::strerror(e));
  return pid;
}

Result<int> WaitProcess(pid_t pid, bool block) {
  int status = 0;
  pid_t r;
  while ((r = waitpid(pid, &status, block ? 0 : WNOHANG)) < 0) {
    if (errno != EINTR) return Status::Error(std::string("waitpid: ") + std::strerror(errno));
  }
  if (r == 0) return -1;  // still running
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace augur

#include "experiments/compare/child_run.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>

namespace augur {

std::string SelfExecutable() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("augur") : p.string();
}

Result<ChildOutcome> RunChild(const std::vector<std::string>& args, const std::string& log_path) {
  const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) return Status::Error("cannot write " + log_path + ": " + std::strerror(errno));
  const std::string self = SelfExecutable();
  std::string line = "$ " + self;
  for (const std::string& a : args) line += " " + a;
  line += "\n";
  if (write(log, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    close(log);
    return Status::Error("cannot write " + log_path + ": " + std::strerror(errno));
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(self.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    close(log);
    return Status::Error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    execv(self.c_str(), argv.data());
    const char msg[] = "augur compare: exec of this binary failed\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
    (void)ignored;
    _exit(127);
  }
  close(log);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Status::Error(std::string("waitpid: ") + std::strerror(errno));
  }
  ChildOutcome out;
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    out.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    out.exit_code = 128 + WTERMSIG(status);
  }
  return out;
}

std::string TailOfFile(const std::string& path, int lines) {
  std::ifstream in(path);
  std::deque<std::string> last;
  for (std::string line; std::getline(in, line);) {
    last.push_back(line);
    if (static_cast<int>(last.size()) > lines) last.pop_front();
  }
  std::string out;
  for (const std::string& l : last) out += "    " + l + "\n";
  return out;
}

}  // namespace augur

#include "experiments/compare/child_run.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>

#include "experiments/launch/spawn.h"
#include "experiments/launch/stop_request.h"

namespace augur {

std::string SelfExecutable() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("augur") : p.string();
}

namespace {

std::string Interrupted(int sig) { return "interrupted (" + StopSignalName(sig) + ")"; }

}  // namespace

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
  // This very binary, even if its file was rebuilt meanwhile (the path then
  // names a deleted file: compare's and calibrate's later runs failed).
  std::vector<std::string> argv{"/proc/self/exe"};
  argv.insert(argv.end(), args.begin(), args.end());
  if (int sig = StopRequested(); sig != 0) {
    close(log);
    return Status::Error(Interrupted(sig));
  }
  const auto start = std::chrono::steady_clock::now();
  Result<pid_t> pid = SpawnProcess(argv, log);
  close(log);
  if (!pid.ok()) return pid.status();
  if (SetWaitedChild(*pid) != 0) kill(*pid, SIGTERM);  // the request came before the mark
  Result<int> code = WaitProcess(*pid);
  SetWaitedChild(0);
  if (!code.ok()) return code.status();
  if (int sig = StopRequested(); sig != 0) return Status::Error(Interrupted(sig));
  ChildOutcome out;
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.exit_code = *code;
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

#include "experiments/launch/process_group.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "experiments/launch/spawn.h"

namespace augur {

ProcessGroup::~ProcessGroup() {
  for (Child& c : children_) {
    if (c.exit_code < 0 && c.pid > 0) {
      kill(c.pid, SIGKILL);
      waitpid(c.pid, nullptr, 0);
    }
    if (c.fd >= 0) close(c.fd);
  }
}

Status ProcessGroup::Spawn(const std::string& label, const std::vector<std::string>& argv,
                           int pass_fd, std::optional<JoinWatch> join) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return Status::Error(std::string("pipe: ") + std::strerror(errno));
  Result<pid_t> pid = SpawnProcess(argv, fds[1], pass_fd);
  close(fds[1]);
  if (!pid.ok()) {
    close(fds[0]);
    return pid.status();
  }
  children_.push_back(Child{label, *pid, fds[0], "", -1, std::move(join), false});
  return Status::Ok();
}

void ProcessGroup::Drain(Child& c, bool eof) {
  const auto line = [&c](std::string_view text) {
    if (c.join.has_value() && text.find(c.join->marker) != std::string_view::npos) c.joined = true;
    std::printf("[%s] %.*s\n", c.label.c_str(), static_cast<int>(text.size()), text.data());
  };
  size_t start = 0;
  for (size_t nl; (nl = c.partial.find('\n', start)) != std::string::npos; start = nl + 1)
    line(std::string_view(c.partial).substr(start, nl - start));
  c.partial.erase(0, start);
  if (eof && !c.partial.empty()) {
    line(c.partial);
    c.partial.clear();
  }
  std::fflush(stdout);
}

void ProcessGroup::ReadAvailable(Child& c) {
  // Bounded: a process it started may hold the pipe and go on writing.
  for (int reads = 0; c.fd >= 0 && reads < 256; ++reads) {
    pollfd p{c.fd, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) return;
    ReadOnce(c);
  }
}

void ProcessGroup::ReadOnce(Child& c) {
  char buf[4096];
  const ssize_t n = read(c.fd, buf, sizeof(buf));
  if (n > 0) {
    c.partial.append(buf, static_cast<size_t>(n));
    Drain(c, false);
  } else if (n == 0 || errno != EINTR) {
    Drain(c, true);
    close(c.fd);
    c.fd = -1;
  }
}

std::string ProcessGroup::Describe(const Child& c) const {
  std::string program = c.join.has_value() ? c.join->program : std::string();
  if (program.size() > 100) program = program.substr(0, 97) + "...";
  for (char& ch : program)  // one line: `python3 -c 'SCRIPT'` may hold newlines
    if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';
  return c.label + " (pid " + std::to_string(c.pid) + (program.empty() ? "" : ", " + program) + ")";
}

bool ProcessGroup::ExitedBeforeJoining() {
  std::string joining;  // ranks running that began to join: they would wait in vain
  bool others = false;
  for (const Child& o : children_) {
    if (o.exit_code >= 0) continue;
    others = true;
    if (o.joined) joining += (joining.empty() ? "" : ", ") + o.label;
  }
  for (Child& c : children_) {
    if (!c.join.has_value() || c.exit_code < 0 || c.joined) continue;
    ReadAvailable(c);  // the marker may still be in its pipe
    if (c.joined) continue;
    if (c.exit_code == 0 && joining.empty()) continue;  // a program that needs no cluster
    join_failure_ = Describe(c) + " exited with code " + std::to_string(c.exit_code) +
                    " before it joined the cluster";
    if (!joining.empty()) join_failure_ += " (" + joining + " began to join and would wait for it)";
    std::printf("[launch] %s%s\n", join_failure_.c_str(),
                others ? ": stopping the other ranks" : "");
    std::fflush(stdout);
    return others;
  }
  return false;
}

std::string ProcessGroup::NotJoined(double join_timeout_seconds) const {
  std::vector<std::string> names;
  for (const Child& c : children_)
    if (c.join.has_value() && c.exit_code < 0 && !c.joined) names.push_back(Describe(c));
  if (names.empty()) return "";
  std::string list;
  for (size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%g s", join_timeout_seconds);
  const bool one = names.size() == 1;
  return list + " did not join the cluster within " + seconds +
         " (--join-timeout): " + (one ? "it never connected" : "they never connected") +
         " to the coordinator (did the program call augur.join?); every rank was killed";
}

void ProcessGroup::KillRunning(const char* why) {
  for (Child& c : children_) {
    if (c.exit_code >= 0) continue;
    if (why != nullptr) std::printf("[launch] %s %s: killing it\n", c.label.c_str(), why);
    kill(c.pid, SIGKILL);
  }
  std::fflush(stdout);
}

std::vector<int> ProcessGroup::Wait(double kill_after_seconds, double join_timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::optional<Clock::time_point> first_failure, all_exited;
  bool killed = false;
  for (;;) {
    std::vector<pollfd> pfds;
    std::vector<Child*> owners;
    for (Child& c : children_) {
      if (c.fd >= 0) {
        pfds.push_back(pollfd{c.fd, POLLIN, 0});
        owners.push_back(&c);
      }
    }
    if (!pfds.empty()) poll(pfds.data(), pfds.size(), 100);
    for (size_t i = 0; i < pfds.size(); ++i) {
      if (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)) ReadOnce(*owners[i]);
    }
    bool running = false;
    for (Child& c : children_) {
      if (c.exit_code >= 0) continue;
      Result<int> code = WaitProcess(c.pid, /*block=*/false);
      if (code.ok() && *code >= 0) {
        c.exit_code = *code;
        if (c.exit_code != 0 && !first_failure) first_failure = Clock::now();
      } else {
        running = true;
      }
    }
    // The cluster cannot form without a rank that exited unjoined: no waiting.
    if (!killed && join_failure_.empty() && ExitedBeforeJoining()) {
      KillRunning(nullptr);
      killed = true;
    }
    if (running && !killed && join_timeout_seconds > 0 &&
        Clock::now() - start > std::chrono::duration<double>(join_timeout_seconds)) {
      if (std::string late = NotJoined(join_timeout_seconds); !late.empty()) {
        join_failure_ = late;
        KillRunning(nullptr);
        killed = true;
      }
    }
    bool open_pipes = false;
    for (Child& c : children_) open_pipes |= c.fd >= 0;
    if (!running && !open_pipes) break;
    if (!running && pfds.empty()) break;
    // Every child exited but something it started (under an ssh wrapper that
    // does not exec) still holds its output open: give it the same grace as
    // a failure, then stop reading it rather than wait forever; none when
    // the children were stopped early (join_failure_): no output is awaited.
    if (!running && !all_exited) all_exited = Clock::now();
    const double grace = join_failure_.empty() ? kill_after_seconds : 0;
    if (!running && Clock::now() - *all_exited >= std::chrono::duration<double>(grace)) {
      for (Child& c : children_) {
        ReadAvailable(c);
        if (c.fd < 0) continue;
        char ago[32] = "";
        if (grace > 0) std::snprintf(ago, sizeof(ago), " %.0f s ago", grace);
        std::printf(
            "[launch] %s exited%s but its output is still open (a process it started?): no "
            "longer reading it\n",
            c.label.c_str(), ago);
        Drain(c, true);
        close(c.fd);
        c.fd = -1;
      }
      break;
    }
    if (running && first_failure && !killed &&
        Clock::now() - *first_failure > std::chrono::duration<double>(kill_after_seconds)) {
      char why[64];
      std::snprintf(why, sizeof(why), "still running %.0f s after a failure", kill_after_seconds);
      KillRunning(why);
      killed = true;
    }
  }
  std::vector<int> codes;
  for (const Child& c : children_) codes.push_back(c.exit_code);
  return codes;
}

}  // namespace augur

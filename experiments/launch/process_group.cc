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
                           int pass_fd) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return Status::Error(std::string("pipe: ") + std::strerror(errno));
  Result<pid_t> pid = SpawnProcess(argv, fds[1], pass_fd);
  close(fds[1]);
  if (!pid.ok()) {
    close(fds[0]);
    return pid.status();
  }
  children_.push_back(Child{label, *pid, fds[0], "", -1});
  return Status::Ok();
}

void ProcessGroup::Drain(Child& c, bool eof) {
  size_t start = 0;
  for (size_t nl; (nl = c.partial.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::printf("[%s] %.*s\n", c.label.c_str(), static_cast<int>(nl - start),
                c.partial.data() + start);
  }
  c.partial.erase(0, start);
  if (eof && !c.partial.empty()) {
    std::printf("[%s] %s\n", c.label.c_str(), c.partial.c_str());
    c.partial.clear();
  }
  std::fflush(stdout);
}

std::vector<int> ProcessGroup::Wait(double kill_after_seconds) {
  using Clock = std::chrono::steady_clock;
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
      if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = read(pfds[i].fd, buf, sizeof(buf));
      Child& c = *owners[i];
      if (n > 0) {
        c.partial.append(buf, static_cast<size_t>(n));
        Drain(c, false);
      } else if (n == 0 || errno != EINTR) {
        Drain(c, true);
        close(c.fd);
        c.fd = -1;
      }
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
    bool open_pipes = false;
    for (Child& c : children_) open_pipes |= c.fd >= 0;
    if (!running && !open_pipes) break;
    if (!running && pfds.empty()) break;
    // Every child exited but something it started (under an ssh wrapper that
    // does not exec) still holds its output open: give it the same grace as
    // a failure, then stop reading it rather than wait forever.
    if (!running && !all_exited) all_exited = Clock::now();
    if (!running &&
        Clock::now() - *all_exited > std::chrono::duration<double>(kill_after_seconds)) {
      for (Child& c : children_) {
        if (c.fd < 0) continue;
        std::printf(
            "[launch] %s exited %.0f s ago but its output is still open (a process it "
            "started?): no longer reading it\n",
            c.label.c_str(), kill_after_seconds);
        Drain(c, true);
        close(c.fd);
        c.fd = -1;
      }
      break;
    }
    if (running && first_failure && !killed &&
        Clock::now() - *first_failure > std::chrono::duration<double>(kill_after_seconds)) {
      for (Child& c : children_) {
        if (c.exit_code >= 0) continue;
        std::printf("[launch] %s still running %.0f s after a failure: killing it\n",
                    c.label.c_str(), kill_after_seconds);
        kill(c.pid, SIGKILL);
      }
      killed = true;
    }
  }
  std::vector<int> codes;
  for (const Child& c : children_) codes.push_back(c.exit_code);
  return codes;
}

}  // namespace augur

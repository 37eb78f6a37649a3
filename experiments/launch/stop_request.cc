#include "experiments/launch/stop_request.h"

#include <signal.h>

#include <atomic>
#include <cstring>

namespace augur {

namespace {

// Lock-free atomics: safe to touch from a signal handler.
std::atomic<int> stop_signal{0};
std::atomic<pid_t> waited_child{0};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);

void OnStopSignal(int signal) {
  int none = 0;
  stop_signal.compare_exchange_strong(none, signal);
  const pid_t child = waited_child.load();
  if (child > 0) kill(child, SIGTERM);
}

}  // namespace

void InstallStopRequest() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked waitpid returns EINTR
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}

int StopRequested() { return stop_signal.load(); }

int SetWaitedChild(pid_t pid) {
  waited_child.store(pid);
  return stop_signal.load();
}

std::string StopSignalName(int sig) { return sig == SIGINT ? "SIGINT" : "SIGTERM"; }

}  // namespace augur

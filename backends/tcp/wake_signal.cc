#include "backends/tcp/wake_signal.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/base/check.h"

namespace augur::tcp {

namespace {

int NewEventFd() {
  const int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  AUGUR_CHECK(fd >= 0, "eventfd failed: %s", std::strerror(errno));
  return fd;
}

}  // namespace

WakeSignal::WakeSignal() : fd_(NewEventFd()) {}

WakeSignal::~WakeSignal() { ::close(fd_); }

void WakeSignal::Set() {
  std::lock_guard<std::mutex> g(mu_);
  permit_ = true;
  if (!blocking_ || signaled_) return;
  signaled_ = true;
  const uint64_t one = 1;
  // Cannot fail short of a counter overflow, which signaled_ rules out.
  [[maybe_unused]] const ssize_t n = ::write(fd_, &one, sizeof(one));
}

bool WakeSignal::Take() {
  std::lock_guard<std::mutex> g(mu_);
  const bool had = permit_;
  permit_ = false;
  return had;
}

bool WakeSignal::BeginBlocking() {
  std::lock_guard<std::mutex> g(mu_);
  if (permit_) return false;
  blocking_ = true;
  return true;
}

void WakeSignal::EndBlocking() {
  std::lock_guard<std::mutex> g(mu_);
  blocking_ = false;
  if (!signaled_) return;
  signaled_ = false;
  uint64_t count = 0;
  [[maybe_unused]] const ssize_t n = ::read(fd_, &count, sizeof(count));
}

}  // namespace augur::tcp

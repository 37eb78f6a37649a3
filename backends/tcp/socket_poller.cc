#include "backends/tcp/socket_poller.h"

#include <cerrno>
#include <cstring>

#include "core/base/check.h"

namespace augur::tcp {

namespace {

int NewEpollSet() {
  const int fd = ::epoll_create1(EPOLL_CLOEXEC);
  AUGUR_CHECK(fd >= 0, "epoll_create1 failed: %s", std::strerror(errno));
  return fd;
}

}  // namespace

SocketPoller::SocketPoller(asio::io_context& io, RoundObserver* rounds)
    : io_(io), rounds_(rounds), set_(io, NewEpollSet()) {}

void SocketPoller::Start() { Arm(); }

uint64_t SocketPoller::Add(int fd, uint32_t events, std::weak_ptr<Pollable> target) {
  const uint64_t id = next_id_++;
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = id;
  const int r = ::epoll_ctl(set_.native_handle(), EPOLL_CTL_ADD, fd, &ev);
  AUGUR_CHECK(r == 0, "epoll_ctl(ADD) failed: %s", std::strerror(errno));
  targets_[id] = std::move(target);
  return id;
}

void SocketPoller::Modify(int fd, uint64_t id, uint32_t events) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = id;
  const int r = ::epoll_ctl(set_.native_handle(), EPOLL_CTL_MOD, fd, &ev);
  AUGUR_CHECK(r == 0, "epoll_ctl(MOD) failed: %s", std::strerror(errno));
}

void SocketPoller::Remove(int fd, uint64_t id) {
  ::epoll_ctl(set_.native_handle(), EPOLL_CTL_DEL, fd, nullptr);
  targets_.erase(id);
}

void SocketPoller::Arm() {
  set_.async_wait(asio::posix::stream_descriptor::wait_read, [this](const asio::error_code& ec) {
    if (ec) return;
    OnReady();
    Arm();
  });
}

void SocketPoller::OnReady() {
  epoll_event events[64];
  const int n = ::epoll_wait(set_.native_handle(), events, 64, 0);
  const bool round = n > 1 && rounds_ != nullptr;  // several sockets ready at once
  if (round) rounds_->BeginRound();
  for (int i = 0; i < n; ++i) {
    // A callback may have removed a later target of this batch: look each up.
    auto it = targets_.find(events[i].data.u64);
    if (it == targets_.end()) continue;
    if (std::shared_ptr<Pollable> t = it->second.lock()) t->OnPollEvents(events[i].events);
  }
  if (round) rounds_->EndRound();
}

}  // namespace augur::tcp

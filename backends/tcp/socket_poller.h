// SocketPoller: readiness of a node's connection sockets for its I/O thread.
//
// The sockets are not Asio objects: each is registered (level-triggered) in
// one epoll set of our own, with exactly the events its connection wants now,
// and Asio watches only that set's descriptor. So a connection can stop the
// I/O thread from being woken by its socket (no EPOLLIN while a parked worker
// reads it, see peer_connection.h) — Asio's reactor registers every socket
// it owns for input for good.
// Threading: Add, Remove and the callbacks run on the I/O thread (the one
// running `io`); Modify may be called from any thread, by the owner of the
// descriptor while it is registered.
#pragma once

#include <sys/epoll.h>

#include <asio.hpp>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace augur::tcp {

class SocketPoller {
 public:
  class Pollable {
   public:
    virtual ~Pollable() = default;
    // The socket is ready: `events` is a mask of EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP.
    virtual void OnPollEvents(uint32_t events) = 0;
  };

  // Brackets a round of readiness callbacks: the sockets one epoll_wait
  // reported, when there are several, handled in one wake-up of the I/O
  // thread.
  class RoundObserver {
   public:
    virtual ~RoundObserver() = default;
    virtual void BeginRound() = 0;
    virtual void EndRound() = 0;
  };

  // `rounds` (may be null) must outlive the poller.
  SocketPoller(asio::io_context& io, RoundObserver* rounds);
  SocketPoller(const SocketPoller&) = delete;
  SocketPoller& operator=(const SocketPoller&) = delete;

  asio::io_context& io() { return io_; }
  // Starts watching (I/O thread, once).
  void Start();
  // Registers `fd` for `events`; returns the id to Modify/Remove it with.
  uint64_t Add(int fd, uint32_t events, std::weak_ptr<Pollable> target);
  void Modify(int fd, uint64_t id, uint32_t events);
  void Remove(int fd, uint64_t id);

 private:
  void Arm();
  void OnReady();

  asio::io_context& io_;
  RoundObserver* const rounds_;
  asio::posix::stream_descriptor set_;  // owns the epoll descriptor
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, std::weak_ptr<Pollable>> targets_;  // I/O thread
};

}  // namespace augur::tcp

// ListenOnFreePort: a loopback TCP socket bound to a port the kernel picked
// (port 0) and already listening, for a rank 0 started in this process or a
// forked child: TcpOptions::coordinator_listen_fd takes the socket over, so
// the port is never released between the pick and its use (a port read back
// and released may be taken by another process, e.g. another test under
// `ctest -j`). Any thread.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace augur::tcp {

class ListeningSocket {
 public:
  ListeningSocket() = default;
  ListeningSocket(int fd, uint16_t port) : fd_(fd), port_(port) {}
  ListeningSocket(ListeningSocket&& o) noexcept : fd_(o.fd_), port_(o.port_) { o.fd_ = -1; }
  ListeningSocket& operator=(ListeningSocket&& o) noexcept;
  ListeningSocket(const ListeningSocket&) = delete;
  ListeningSocket& operator=(const ListeningSocket&) = delete;
  ~ListeningSocket();  // closes the socket unless Release()d

  uint16_t port() const { return port_; }
  // The descriptor, still owned here (close-on-exec; -1 once released).
  int fd() const { return fd_; }
  // Hands the descriptor over (to TcpOptions::coordinator_listen_fd); -1 after.
  int Release();

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
};

// Binds host (an IPv4 address, default loopback) on a free port and listens.
Result<ListeningSocket> ListenOnFreePort(const std::string& host = "127.0.0.1");

// The same on a given port (0: a free one). Error names host:port and why
// ("Address already in use").
Result<ListeningSocket> ListenOn(const std::string& host, uint16_t port);

}  // namespace augur::tcp

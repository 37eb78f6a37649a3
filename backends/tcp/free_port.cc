#include "backends/tcp/free_port.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace augur::tcp {

ListeningSocket& ListeningSocket::operator=(ListeningSocket&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) close(fd_);
    fd_ = o.fd_;
    port_ = o.port_;
    o.fd_ = -1;
  }
  return *this;
}

ListeningSocket::~ListeningSocket() {
  if (fd_ >= 0) close(fd_);
}

int ListeningSocket::Release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

Result<ListeningSocket> ListenOn(const std::string& host, uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1)
    return Status::Error("cannot listen on '" + host + "': not an IPv4 address");
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::Error(std::string("socket: ") + std::strerror(errno));
  ListeningSocket s(fd, 0);
  const int one = 1;  // a given port: reusable while an earlier run's connections linger
  if (port != 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0)
    return Status::Error(std::string("setsockopt: ") + std::strerror(errno));
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(fd, SOMAXCONN) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::string where = host;  // built piecewise: GCC 12 warns (-Wrestrict) on operator+ here
    if (port != 0) where.append(":").append(std::to_string(port));
    return Status::Error("cannot listen on " + where + ": " + std::strerror(errno));
  }
  return ListeningSocket(s.Release(), ntohs(addr.sin_port));
}

Result<ListeningSocket> ListenOnFreePort(const std::string& host) { return ListenOn(host, 0); }

}  // namespace augur::tcp

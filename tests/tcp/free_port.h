// FreePort: a listening loopback socket on a port the kernel picked, for tests
// that start TCP nodes in this process. Rank 0 takes the socket over
// (TcpOptions::coordinator_listen_fd), so no other test can take the port in
// between (backends/tcp/free_port.h).
#pragma once

#include <catch2/catch.hpp>

#include "backends/tcp/free_port.h"

namespace augur::tcp {

inline ListeningSocket FreePort() {
  Result<ListeningSocket> s = ListenOnFreePort();
  REQUIRE(s.ok());
  return std::move(*s);
}

}  // namespace augur::tcp

// FreePort: a loopback port that was free a moment ago, for tests that start
// TCP nodes in this process (bound to port 0, read back, released; another
// process may take it in between, as with any such pick).
#pragma once

#include <asio.hpp>
#include <cstdint>

namespace augur::tcp {

inline uint16_t FreePort() {
  asio::io_context io;
  asio::ip::tcp::acceptor a(io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

}  // namespace augur::tcp

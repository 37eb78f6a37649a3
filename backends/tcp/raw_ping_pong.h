// RawPingPong: the reference for `augur bench-net` — request/response round
// trips of fixed sizes over a plain blocking Asio TCP socket (TCP_NODELAY),
// with no framing, handshake, threads or protocol: the best the socket
// library can do on this machine.
//
// The server (ServeRawPingPong) answers every `request_bytes` it reads with
// `response_bytes` until the client closes. A RawPingPongClient connects once
// and runs round trips in as many timed blocks as the caller wants, so they
// can be interleaved with other measurements. Each object is used by one thread.
#pragma once

#include <asio.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur::tcp {

// Accepts one client on `acceptor` and serves it until it disconnects.
Status ServeRawPingPong(asio::ip::tcp::acceptor& acceptor, size_t request_bytes,
                        size_t response_bytes);

class RawPingPongClient {
 public:
  // Connects to 127.0.0.1-style `host:port`, retrying for up to `connect_timeout_seconds`.
  static Result<std::unique_ptr<RawPingPongClient>> Connect(const std::string& host, uint16_t port,
                                                            size_t request_bytes,
                                                            size_t response_bytes,
                                                            double connect_timeout_seconds);
  // Runs `rounds` round trips; returns their wall-clock seconds.
  Result<double> Run(uint64_t rounds);
  // Shuts down the sending side: the server's loop ends.
  void Close();

 private:
  RawPingPongClient(size_t request_bytes, size_t response_bytes);

  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  std::vector<uint8_t> request_, response_;
};

}  // namespace augur::tcp

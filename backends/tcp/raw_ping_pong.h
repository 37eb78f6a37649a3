// RawPingPong: the reference for `augur bench-net` — request/response round
// trips of fixed sizes over a plain blocking Asio TCP socket (TCP_NODELAY),
// with no framing, handshake, threads or protocol: the best the socket
// library can do on this machine.
//
// The server (ServeRawPingPong) answers every `request_bytes` it reads with
// `response_bytes` until the client closes. Each function is called by one thread.
#pragma once

#include <asio.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace augur::tcp {

// Accepts one client on `acceptor` and serves it until it disconnects.
Status ServeRawPingPong(asio::ip::tcp::acceptor& acceptor, size_t request_bytes,
                        size_t response_bytes);
// Connects (retrying for up to `connect_timeout_seconds`), runs `warmup` then
// `rounds` timed round trips; returns the timed seconds.
Result<double> RunRawPingPong(const std::string& host, uint16_t port, size_t request_bytes,
                              size_t response_bytes, uint64_t warmup, uint64_t rounds,
                              double connect_timeout_seconds);

}  // namespace augur::tcp

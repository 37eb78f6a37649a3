#include "backends/tcp/raw_ping_pong.h"

#include <chrono>
#include <thread>
#include <vector>

namespace augur::tcp {

Status ServeRawPingPong(asio::ip::tcp::acceptor& acceptor, size_t request_bytes,
                        size_t response_bytes) {
  asio::error_code ec;
  asio::ip::tcp::socket socket = acceptor.accept(ec);
  if (ec) return Status::Error("raw ping-pong accept: " + ec.message());
  socket.set_option(asio::ip::tcp::no_delay(true), ec);
  std::vector<uint8_t> request(request_bytes), response(response_bytes, 0x5a);
  for (;;) {
    asio::read(socket, asio::buffer(request), ec);
    if (ec == asio::error::eof) return Status::Ok();
    if (ec) return Status::Error("raw ping-pong read: " + ec.message());
    asio::write(socket, asio::buffer(response), ec);
    if (ec) return Status::Error("raw ping-pong write: " + ec.message());
  }
}

Result<double> RunRawPingPong(const std::string& host, uint16_t port, size_t request_bytes,
                              size_t response_bytes, uint64_t warmup, uint64_t rounds,
                              double connect_timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  const asio::ip::tcp::endpoint ep(asio::ip::make_address(host), port);
  const auto deadline = Clock::now() + std::chrono::duration<double>(connect_timeout_seconds);
  asio::error_code ec;
  for (;;) {
    socket.connect(ep, ec);
    if (!ec) break;
    socket.close();
    if (Clock::now() > deadline) return Status::Error("raw ping-pong connect: " + ec.message());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  socket.set_option(asio::ip::tcp::no_delay(true), ec);
  std::vector<uint8_t> request(request_bytes, 0xa5), response(response_bytes);
  Clock::time_point start;
  for (uint64_t i = 0; i < warmup + rounds; ++i) {
    if (i == warmup) start = Clock::now();
    asio::write(socket, asio::buffer(request), ec);
    if (!ec) asio::read(socket, asio::buffer(response), ec);
    if (ec) return Status::Error("raw ping-pong round trip: " + ec.message());
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  socket.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
  return seconds;
}

}  // namespace augur::tcp

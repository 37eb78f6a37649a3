#include "backends/tcp/raw_ping_pong.h"

#include <chrono>
#include <thread>

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

RawPingPongClient::RawPingPongClient(size_t request_bytes, size_t response_bytes)
    : socket_(io_), request_(request_bytes, 0xa5), response_(response_bytes) {}

Result<std::unique_ptr<RawPingPongClient>> RawPingPongClient::Connect(
    const std::string& host, uint16_t port, size_t request_bytes, size_t response_bytes,
    double connect_timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  std::unique_ptr<RawPingPongClient> c(new RawPingPongClient(request_bytes, response_bytes));
  asio::error_code ec;
  const asio::ip::address address = asio::ip::make_address(host, ec);
  if (ec) return Status::Error("raw ping-pong: bad address '" + host + "'");
  const asio::ip::tcp::endpoint ep(address, port);
  const auto deadline = Clock::now() + std::chrono::duration<double>(connect_timeout_seconds);
  for (;;) {
    c->socket_.connect(ep, ec);
    if (!ec) break;
    c->socket_.close(ec);
    if (Clock::now() > deadline) return Status::Error("raw ping-pong connect: " + ec.message());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  c->socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  return c;
}

Result<double> RawPingPongClient::Run(uint64_t rounds) {
  using Clock = std::chrono::steady_clock;
  asio::error_code ec;
  const Clock::time_point start = Clock::now();
  for (uint64_t i = 0; i < rounds; ++i) {
    asio::write(socket_, asio::buffer(request_), ec);
    if (!ec) asio::read(socket_, asio::buffer(response_), ec);
    if (ec) return Status::Error("raw ping-pong round trip: " + ec.message());
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void RawPingPongClient::Close() {
  asio::error_code ec;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace augur::tcp

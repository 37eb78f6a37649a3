// PeerConnection: one authenticated TCP stream between two ranks.
//
// Runs the handshake (handshake.h) as dialer or acceptor, then reassembles
// frames (frame_reader.h) and hands each to its Listener. Outgoing frames are
// queued and written in batches (one gather write per batch), so frames sent
// while a write is in flight go out together. Per-connection FIFO in both
// directions is TCP's order.
// Threading: every method, and every Listener callback, runs on the owning
// transport's I/O thread. Owned by shared_ptr (in-flight async operations
// hold a reference); the Listener must outlive it.
#pragma once

#include <array>
#include <asio.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/frame_reader.h"
#include "backends/tcp/handshake.h"
#include "core/base/status.h"

namespace augur::tcp {

class PeerConnection : public std::enable_shared_from_this<PeerConnection> {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    // The handshake succeeded; an error refuses the peer (the connection is dropped).
    virtual Status OnAuthenticated(PeerConnection& c) = 0;
    // A post-handshake frame; an error drops the connection.
    virtual Status OnFrame(PeerConnection& c, const Frame& frame) = 0;
    // The peer closed its sending side; `status` is an error if a frame was truncated.
    virtual void OnPeerEof(PeerConnection& c, const Status& status) = 0;
    // The connection is gone: ok after a clean two-sided close, else the reason.
    virtual void OnClosed(PeerConnection& c, const Status& reason) = 0;
  };
  enum class Role { kDialer, kAcceptor };

  // expected_rank: the rank a dialer expects to reach (-1: any, for the coordinator).
  PeerConnection(asio::ip::tcp::socket socket, Role role, int64_t expected_rank,
                 const HandshakeConfig& handshake, uint32_t max_frame_bytes, Listener& listener);

  void Start();
  // Queues a frame. Ignored once the connection is closing.
  void Send(FrameKind kind, std::vector<uint8_t> payload);
  // Any thread. If the connection is open and idle (nothing queued or being
  // written), writes the frame now without blocking, hands whatever the
  // socket did not take to the I/O thread, and returns true (`payload` is then
  // consumed). Otherwise returns false and leaves `payload` alone: queue it
  // through the I/O thread instead. Callers keep frames to this connection in
  // order (TcpTransport serializes them per destination).
  bool TrySendNow(FrameKind kind, std::vector<uint8_t>& payload);
  // Shuts down the sending side once every queued frame is written.
  void ShutdownSendWhenFlushed();
  // Drops the connection now; OnClosed(reason) follows.
  void Close(const Status& reason);

  bool authenticated() const { return state_ == State::kOpen; }
  bool was_authenticated() const { return was_authenticated_; }
  Role role() const { return role_; }
  int64_t peer_rank() const { return peer_rank_; }
  // "rank 2 at 10.0.0.2:41234" once known, else "10.0.0.2:41234 (unauthenticated)".
  std::string Describe() const;
  std::string remote_host() const { return remote_host_; }
  asio::ip::tcp::endpoint local_endpoint() const;
  std::chrono::steady_clock::time_point last_receive() const { return last_receive_; }
  bool closed() const { return state_ == State::kClosed; }

 private:
  enum class State { kAwaitHello, kAwaitChallenge, kAwaitProof, kOpen, kClosed };
  struct Outgoing {
    std::array<uint8_t, kTransportHeaderBytes> header;
    std::vector<uint8_t> payload;
    size_t written = 0;  // bytes of header + payload already on the wire
  };

  void ReadMore();
  void OnRead(const asio::error_code& ec, size_t n);
  Status HandleFrame(const Frame& f);
  Status HandleHandshake(const Frame& f);
  // REQUIRES: write_mu_ held. Starts the next gather write; returns true if
  // it shut the sending side instead (call MaybeFinish after unlocking).
  bool WriteMore();
  void ResumeWriting();  // after TrySendNow left bytes for the I/O thread
  void OnWritten(const asio::error_code& ec);
  void MaybeFinish();
  void CloseSocket();  // takes write_mu_

  asio::ip::tcp::socket socket_;
  const Role role_;
  const int64_t expected_rank_;
  const HandshakeConfig& handshake_;
  Listener& listener_;
  FrameReader reader_;
  State state_;
  int64_t peer_rank_ = -1;
  bool was_authenticated_ = false;
  std::string remote_host_;
  std::string remote_;  // "host:port"
  Nonce my_nonce_{};
  Hello hello_;  // acceptor: the dialer's hello
  std::chrono::steady_clock::time_point last_receive_;

  bool read_eof_ = false;

  // Write side: shared with TrySendNow's callers.
  std::mutex write_mu_;
  std::deque<Outgoing> queue_;               // guarded by write_mu_
  bool writing_ = false;                     // guarded by write_mu_: an async write is in flight
  bool write_closed_ = false;                // guarded by write_mu_: the socket is closed
  bool shutdown_requested_ = false;          // guarded by write_mu_
  bool send_shut_ = false;                   // guarded by write_mu_
  int fd_ = -1;                              // guarded by write_mu_ (-1 once closed)
  std::vector<Outgoing> in_flight_;          // I/O thread, while writing_
  std::vector<asio::const_buffer> buffers_;  // I/O thread, while writing_
};

}  // namespace augur::tcp

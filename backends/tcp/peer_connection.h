// PeerConnection: one authenticated TCP stream between two ranks.
//
// Runs the handshake (handshake.h) as dialer or acceptor, then reassembles
// frames (frame_reader.h) and hands each to its Listener. Before the
// handshake completes no frame longer than kMaxHandshakeFrameBytes is
// accepted (refused from its header) and the read buffer stays that small;
// after it, every frame in both directions is protected with the
// connection's own keys (frame_protection.h, --wire-security), sealed when
// it is queued (queue order is wire order) and opened by the frame reader. The socket is a
// plain non-blocking descriptor watched by the transport's SocketPoller.
// Outgoing frames are written at once as far as the socket takes them; the
// rest waits in a queue that the I/O thread writes when the socket is
// writable, in gather writes (frames queued meanwhile leave together).
// Per-connection FIFO in both directions is TCP's order.
//
// Reading: one reader at a time owns the read side (the frame reader and
// the socket's input): the I/O thread, or a parked worker that takes its
// replies off the socket itself (AcquireForWorker .. ReleaseFromWorker).
// While a worker owns it, the socket is not registered for input, so
// arriving bytes wake only that worker. A worker delivers data frames
// itself and hands everything else (control frames, end of stream, errors)
// with the read side back to the I/O thread, in stream order.
//
// Threading: Start, Send, ShutdownSendWhenFlushed, Close and every Listener
// callback run on the owning transport's I/O thread; TrySendNow and the
// worker methods on any thread. Owned by shared_ptr (posted handlers hold a
// reference); the Listener and the poller must outlive it.
#pragma once

#include <sys/uio.h>

#include <array>
#include <asio.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/frame_reader.h"
#include "backends/tcp/handshake.h"
#include "backends/tcp/socket_poller.h"
#include "core/base/status.h"

namespace augur::tcp {

class PeerConnection : public SocketPoller::Pollable,
                       public std::enable_shared_from_this<PeerConnection> {
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
  // A worker's delivery of one data frame's payload; an error drops the connection.
  using DataSink = std::function<Status(std::span<const uint8_t> payload)>;

  // expected_rank: the rank a dialer expects to reach (-1: any, for the coordinator).
  // max_frame_bytes: the largest payload accepted once authenticated.
  // Takes the socket's descriptor out of Asio.
  PeerConnection(asio::ip::tcp::socket socket, SocketPoller& poller, Role role,
                 int64_t expected_rank, const HandshakeConfig& handshake, uint32_t max_frame_bytes,
                 Listener& listener);
  ~PeerConnection() override;

  void Start();
  // Queues a frame. Ignored once the connection is closing.
  void Send(FrameKind kind, std::vector<uint8_t> payload);
  // Any thread. If the connection is open and nothing is queued, writes the
  // frame now without blocking, queues whatever the socket did not take for
  // the I/O thread, and returns true (`payload` is then consumed). Otherwise
  // returns false and leaves `payload` alone: queue it through the I/O thread
  // instead. Callers keep frames to this connection in order (TcpTransport
  // serializes them per destination).
  bool TrySendNow(FrameKind kind, std::vector<uint8_t>& payload);
  // Shuts down the sending side once every queued frame is written.
  void ShutdownSendWhenFlushed();
  // Drops the connection now; OnClosed(reason) follows.
  void Close(const Status& reason);

  // Any thread, for a parked worker. Takes the read side if the connection is
  // authenticated, open and no one else reads it; returns the socket to poll.
  int AcquireForWorker();
  // REQUIRES: acquired. Reads what the socket has and delivers the data
  // frames in it through `sink`. Returns false once it handed the read side
  // back to the I/O thread (see above): the worker no longer owns it.
  bool ReadAsWorker(const DataSink& sink);
  // REQUIRES: acquired. Gives the read side back.
  void ReleaseFromWorker();

  bool was_authenticated() const { return was_authenticated_; }
  Role role() const { return role_; }
  int64_t peer_rank() const { return peer_rank_; }
  // "rank 2 at 10.0.0.2:41234" once known, else "10.0.0.2:41234 (unauthenticated)".
  std::string Describe() const;
  std::string remote_host() const { return remote_host_; }
  asio::ip::tcp::endpoint local_endpoint() const { return local_; }
  std::chrono::steady_clock::time_point last_receive() const;
  // When the connection was set up (for --handshake-timeout).
  std::chrono::steady_clock::time_point created() const { return created_; }
  bool closed() const { return state_ == State::kClosed; }

 private:
  static bool WouldBlock(int err);  // errno of a non-blocking call that would have blocked
  enum class State { kAwaitHello, kAwaitChallenge, kAwaitProof, kOpen, kClosed };
  enum class Reader { kNone, kIo, kWorker };
  struct Outgoing {
    std::array<uint8_t, kTransportHeaderBytes> header;
    std::vector<uint8_t> payload;
    std::array<uint8_t, kFrameTagBytes> tag;
    size_t tag_bytes = 0;  // 0 before the handshake completes or with --wire-security none
    size_t written = 0;    // bytes of header + payload + tag already on the wire
    size_t total() const { return header.size() + payload.size() + tag_bytes; }
    // Appends the iovecs of what is not yet written; returns how many.
    size_t Unwritten(iovec* iov) const;
  };

  void OnPollEvents(uint32_t events) override;
  // REQUIRES: the I/O thread owns the read side. Delivers the frames already
  // buffered, then reads until the socket has no more.
  void ReadOnIo();
  void OnEof();
  Status HandleFrame(const Frame& f);
  Status HandleHandshake(const Frame& f);
  // Derives the connection's keys once both nonces are known and protects
  // both directions from the next frame on.
  Status Protect();
  // REQUIRES: mu_ held. Frames `payload` (sealing it once protected).
  Result<Outgoing> MakeOutgoingLocked(FrameKind kind, std::vector<uint8_t> payload);
  // Worker: hands the read side to the I/O thread, which runs `then`.
  void HandToIo(std::function<void(PeerConnection&)> then);
  void MarkReceived();
  // One recv into the frame reader (retried on EINTR). kError leaves errno set.
  enum class Received { kData, kEof, kWouldBlock, kError };
  Received ReceiveSome();
  // REQUIRES: mu_ held. Writes queued frames while the socket takes them;
  // returns true if it shut the sending side instead (call MaybeFinish
  // after unlocking, on the I/O thread).
  bool WriteLocked();
  void OnWriteError(const std::string& why);  // REQUIRES: mu_ held
  void UpdateEventsLocked();                  // REQUIRES: mu_ held
  void MaybeFinish();
  void CloseSocket();

  SocketPoller& poller_;
  const Role role_;
  const int64_t expected_rank_;
  const HandshakeConfig& handshake_;
  Listener& listener_;
  const uint32_t max_frame_bytes_;
  const std::chrono::steady_clock::time_point created_;
  FrameReader reader_;  // owned by the current reader (reader_owner_)
  State state_;         // I/O thread
  int64_t peer_rank_ = -1;
  bool was_authenticated_ = false;
  bool read_eof_ = false;  // I/O thread
  std::string remote_host_;
  std::string remote_;  // "host:port"
  asio::ip::tcp::endpoint local_;
  Nonce my_nonce_{};
  Nonce peer_nonce_{};  // dialer: the acceptor's nonce from its challenge
  Hello hello_;         // acceptor: the dialer's hello
  std::atomic<int64_t> last_receive_ns_;

  // Shared with workers (TrySendNow, the worker read methods).
  std::mutex mu_;
  std::condition_variable reader_released_;  // reader_owner_ left kWorker
  int fd_ = -1;                              // guarded by mu_ (-1 once closed)
  uint64_t poll_id_ = 0;                     // guarded by mu_
  uint32_t registered_events_ = 0;           // guarded by mu_
  Reader reader_owner_ = Reader::kNone;      // guarded by mu_
  bool readable_ = true;                     // guarded by mu_: false after end of stream / close
  bool open_for_workers_ = false;            // guarded by mu_: authenticated and not closing
  std::deque<Outgoing> queue_;               // guarded by mu_: frames the socket has not taken yet
  std::unique_ptr<FrameSealer> sealer_;      // guarded by mu_: set once authenticated
  bool write_closed_ = false;                // guarded by mu_: a write failed or the socket closed
  bool shutdown_requested_ = false;          // guarded by mu_
  bool send_shut_ = false;                   // guarded by mu_
};

}  // namespace augur::tcp

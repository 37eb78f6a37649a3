// TcpTransport: one node's connections to every other rank, over Asio.
//
// Bootstrap (rank 0 is the coordinator): every rank r > 0 dials the
// coordinator, authenticates (handshake.h) and registers the address it
// listens on; once all ranks registered, rank 0 sends everyone the roster;
// rank r then dials every rank 0 < j < r and accepts from ranks above it.
// The result is one authenticated, bidirectional connection per pair (the
// coordinator connection doubles as the data connection to rank 0), so each
// pair's frames keep their order.
//
// Shutdown (drain): Finish() sends Goodbye ("my workers are done") to every
// peer after everything queued before it; a connection is shut down once both
// sides said goodbye and its queue is written. EOF without goodbye, a dropped
// connection or --peer-timeout of silence (heartbeats flow while idle) is a
// fatal peer loss naming the rank, and so is a frame that fails its
// authentication (frame_protection.h).
//
// Strangers: an accepted connection that has not authenticated within
// --handshake-timeout is dropped with one log line, and at most
// max_unauthenticated connections may be in their handshake at once (more are
// closed as they arrive). Neither affects the cluster.
//
// Sending: a core frame larger than --max-frame-bytes is not sent; it fails
// the transport with an error naming its message type and size.
//
// Threading: one internal I/O thread runs every handler; Send() may be
// called from any thread (and may write to the socket from it). The
// Receiver is called one frame at a time (under handler_mutex()), from the
// I/O thread or from a parked worker that reads its own replies (WaitParked).
// Start() and Finish() are called by one controlling thread.
#pragma once

#include <asio.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/peer_connection.h"
#include "backends/tcp/socket_poller.h"
#include "backends/tcp/tcp_options.h"
#include "backends/tcp/thread_slice.h"
#include "backends/tcp/wake_signal.h"
#include "core/base/status.h"
#include "core/base/types.h"

namespace augur::tcp {

class TcpTransport final : private PeerConnection::Listener, private SocketPoller::RoundObserver {
 public:
  class Receiver {
   public:
    virtual ~Receiver() = default;
    // One core frame from `from` (self-sends too), under handler_mutex(). An
    // error drops that peer.
    virtual Status OnData(NodeId from, std::span<const uint8_t> frame) = 0;
    // On the I/O thread, without handler_mutex(): the frames delivered
    // between a BeginRound and its EndRound came in one wake-up (from the
    // several sockets one epoll_wait reported, or the several delayed frames
    // due at once), so a receiver may hold what it sends in answer until
    // EndRound.
    virtual void BeginRound() {}
    virtual void EndRound() {}
  };

  TcpTransport(TcpOptions options, Receiver& receiver);
  ~TcpTransport() override;

  // Before Start(): a thread blocked in Start() or parked in WaitParked()
  // wakes every `period` and calls `stop()` (e.g. the Python module's Ctrl-C
  // check); so does Finish(). Once it returns true, Start() and Finish() fail
  // ("interrupted ...") and WaitParked() returns (its caller then finds
  // itself cancelled or not).
  // stop() is called with no lock of the transport held.
  void SetWaitCheck(std::function<bool()> stop, std::chrono::milliseconds period);
  // Listens, joins the cluster and returns once connected to every peer (or failed).
  Status Start();
  // Sends one core frame to `to`; never blocks on the network. Any thread. Off
  // the I/O thread, a frame with nothing queued ahead of it is written from
  // the calling thread (see Outbox); otherwise it is queued for the I/O thread.
  void Send(NodeId to, std::vector<uint8_t> frame);
  // Says goodbye and waits until every connection closed cleanly (or failed).
  // With `limit_seconds`, waits at most that long for the peers' goodbyes
  // and then fails ("no goodbye from every peer within ..."): for a node that
  // stopped early while its peers may be waiting for it (a diverged run).
  Status Finish(std::optional<double> limit_seconds = std::nullopt);
  // Waits until the transport failed, or `done()` (checked when Notify() is called).
  // Returns the failure, or Ok once done.
  Status WaitFor(const std::function<bool()>& done);
  void Notify();

  // A parked worker's wait: blocks until `signal` is set (returns at once if it is),
  // or until the wait check (SetWaitCheck) said stop.
  // Meanwhile the worker reads the connections no one else is reading and
  // delivers their data frames itself (at most one worker at a time; not
  // with --emulate-latency), so a reply wakes the worker that waits for it
  // rather than the I/O thread.
  void WaitParked(WakeSignal& signal);
  // Held around every Receiver call; hold it to call into the receiver's
  // node from elsewhere (timers), so its handlers run one at a time.
  std::mutex& handler_mutex() { return handler_mu_; }

  asio::io_context& io() { return io_; }
  const TcpOptions& options() const { return options_; }
  // What became of options().io_slice_seconds on the I/O thread, in words
  // (SliceOutcomeName, or the system call's error). Set once Start returned.
  std::string io_slice_status() const {
    return io_slice_.ok() ? SliceOutcomeName(io_slice_.value()) : io_slice_.status().message();
  }
  // A fatal error (first one wins); safe from any thread.
  void Fail(const Status& s);
  Status failure() const;
  void Log(const std::string& line) const;

 private:
  struct Peer {
    std::shared_ptr<PeerConnection> conn;
    std::deque<std::vector<uint8_t>> pending;  // data frames waiting for the connection
    bool goodbye_received = false;
    bool closed_cleanly = false;
    std::optional<PeerAddress> address;  // registered (coordinator) or from the roster
  };
  // Data frames for one peer on their way from any thread to its connection.
  // A frame sent off the I/O thread while nothing is waiting here goes
  // straight to the socket (PeerConnection::TrySendNow); otherwise it waits
  // here for Flush on the I/O thread. `mu` is held across both, so frames to
  // one peer keep their order.
  struct Outbox {
    std::mutex mu;
    std::vector<std::vector<uint8_t>> frames;
    bool flush_posted = false;
    std::shared_ptr<PeerConnection> conn;  // set once authenticated (I/O thread)
  };
  struct Delayed {
    std::chrono::steady_clock::time_point due;
    NodeId from;
    FrameKind kind;
    std::vector<uint8_t> payload;
    std::optional<Status> eof;  // set: the peer's end of stream, not a frame
  };

  // Waits on cv_ (g holds mu_) until failure_ is set or done() (under mu_);
  // with a wait check, one that says stop sets failure_ to `interrupted`.
  // With `limit_seconds`, at most that long: false if it ran out first.
  bool WaitChecked(std::unique_lock<std::mutex>& g, const std::function<bool()>& done,
                   const char* interrupted, std::optional<double> limit_seconds = std::nullopt);

  // PeerConnection::Listener (I/O thread).
  Status OnAuthenticated(PeerConnection& c) override;
  Status OnFrame(PeerConnection& c, const Frame& frame) override;
  void OnPeerEof(PeerConnection& c, const Status& status) override;
  void OnClosed(PeerConnection& c, const Status& reason) override;
  // SocketPoller::RoundObserver (I/O thread): passed on to the receiver.
  void BeginRound() override { receiver_.BeginRound(); }
  void EndRound() override { receiver_.EndRound(); }

  PeerConnection::Listener& AsListener() { return *this; }
  Status Listen();
  void Accept();
  void Dial(NodeId rank, PeerAddress address, std::chrono::steady_clock::time_point deadline);
  static std::chrono::nanoseconds ToDuration(double seconds);
  void OnCoordinatorReady(PeerConnection& c);
  Status HandleRegister(NodeId from, const Frame& f);
  Status HandleRoster(const Frame& f);
  Status Dispatch(NodeId from, FrameKind kind, std::span<const uint8_t> payload);
  void DeliverDelayed();
  void HandlePeerEof(PeerConnection& c, const Status& status);
  void Flush(NodeId to);
  void DeliverSelf(std::vector<uint8_t> frame);
  void SayGoodbye();
  void MaybeShutdown(NodeId p);
  void CheckFinished();
  void Tick();
  size_t CountStrangers() const;  // accepted connections still in their handshake
  void DropSlowHandshakes(std::chrono::steady_clock::time_point now);
  Status CheckSendable(NodeId to, std::span<const uint8_t> frame) const;
  void CheckReady();
  std::string PeerName(NodeId p) const;

  const TcpOptions options_;
  Receiver& receiver_;
  HandshakeConfig handshake_;
  asio::io_context io_;
  SocketPoller poller_;  // before the connections, which use it
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer tick_timer_;
  asio::steady_timer delay_timer_;
  std::thread thread_;
  // Written by the I/O thread before it runs io_.
  Result<SliceOutcome> io_slice_{Status::Error("the I/O thread has not started")};
  const std::chrono::steady_clock::time_point start_;

  // I/O-thread state.
  std::vector<Peer> peers_;                                  // index = rank; peers_[self] unused
  std::vector<std::shared_ptr<PeerConnection>> unattached_;  // in handshake
  std::deque<Delayed> delayed_;
  bool delay_timer_armed_ = false;
  bool roster_sent_ = false;
  bool local_done_ = false;
  PeerAddress advertised_;

  std::vector<std::unique_ptr<Outbox>> outboxes_;  // index = rank
  std::mutex handler_mu_;                          // see handler_mutex()
  std::mutex worker_read_mu_;                      // held by the one worker reading
  std::function<bool()> wait_check_;               // set before Start; see SetWaitCheck
  std::chrono::milliseconds wait_check_period_{0};

  mutable std::mutex mu_;  // guards the fields below
  std::condition_variable cv_;
  Status failure_;
  bool ready_ = false;     // connected to every peer
  bool finished_ = false;  // every connection closed cleanly
};

}  // namespace augur::tcp

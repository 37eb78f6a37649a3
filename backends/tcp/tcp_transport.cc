#include "backends/tcp/tcp_transport.h"

#include <poll.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/base/check.h"
#include "core/codec/codec.h"

namespace augur::tcp {

namespace {

using SteadyClock = std::chrono::steady_clock;

}  // namespace

std::chrono::nanoseconds TcpTransport::ToDuration(double seconds) {
  return std::chrono::nanoseconds(static_cast<int64_t>(seconds * 1e9));
}

TcpTransport::TcpTransport(TcpOptions options, Receiver& receiver)
    : options_(std::move(options)),
      receiver_(receiver),
      poller_(io_, this),
      work_(asio::make_work_guard(io_)),
      acceptor_(io_),
      tick_timer_(io_),
      delay_timer_(io_),
      start_(SteadyClock::now()),
      peers_(options_.nodes) {
  AUGUR_CHECK(options_.rank < options_.nodes, "rank %u of %u", options_.rank, options_.nodes);
  handshake_.cluster_id = options_.cluster_id;
  handshake_.secret = options_.secret;
  handshake_.rank = options_.rank;
  handshake_.nodes = options_.nodes;
  handshake_.wire_security = options_.wire_security;
  for (uint32_t i = 0; i < options_.nodes; ++i) outboxes_.push_back(std::make_unique<Outbox>());
}

TcpTransport::~TcpTransport() {
  work_.reset();
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

void TcpTransport::Log(const std::string& line) const {
  std::fprintf(stderr, "augur rank %u: %s\n", options_.rank, line.c_str());
}

void TcpTransport::Fail(const Status& s) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (!failure_.ok()) return;
    failure_ = s;
  }
  cv_.notify_all();
}

Status TcpTransport::failure() const {
  std::lock_guard<std::mutex> g(mu_);
  return failure_;
}

void TcpTransport::Notify() {
  { std::lock_guard<std::mutex> g(mu_); }
  cv_.notify_all();
}

Status TcpTransport::WaitFor(const std::function<bool()>& done) {
  std::unique_lock<std::mutex> g(mu_);
  cv_.wait(g, [&] { return !failure_.ok() || done(); });
  return failure_;
}

std::string TcpTransport::PeerName(NodeId p) const {
  if (peers_[p].conn) return peers_[p].conn->Describe();
  return "rank " + std::to_string(p);
}

Status TcpTransport::OnFrame(PeerConnection& c, const Frame& f) {
  const NodeId p = static_cast<NodeId>(c.peer_rank());
  switch (f.kind) {
    case FrameKind::kRegister:
      return HandleRegister(p, f);
    case FrameKind::kRoster:
      if (p != 0) return Status::Error("roster frame from a rank other than the coordinator");
      return HandleRoster(f);
    case FrameKind::kHeartbeat:
      return Status::Ok();
    case FrameKind::kData:
    case FrameKind::kGoodbye:
      if (options_.emulate_latency_seconds <= 0) return Dispatch(p, f.kind, f.payload);
      delayed_.push_back(
          Delayed{SteadyClock::now() + ToDuration(options_.emulate_latency_seconds), p, f.kind,
                  std::vector<uint8_t>(f.payload.begin(), f.payload.end()), std::nullopt});
      DeliverDelayed();
      return Status::Ok();
    default:
      return Status::Error(std::string("unexpected ") + FrameKindName(f.kind) + " frame");
  }
}

Status TcpTransport::Dispatch(NodeId from, FrameKind kind, std::span<const uint8_t> payload) {
  if (kind == FrameKind::kGoodbye) {
    if (!payload.empty()) return Status::Error("goodbye frame with a payload");
    peers_[from].goodbye_received = true;
    MaybeShutdown(from);
    return Status::Ok();
  }
  std::lock_guard<std::mutex> g(handler_mu_);
  return receiver_.OnData(from, payload);
}

void TcpTransport::DeliverDelayed() {
  const auto now = SteadyClock::now();
  // Several frames due now are one round, as the sockets of one epoll_wait
  // are (the delay is the same for every frame: the queue is in due order).
  const bool round = delayed_.size() > 1 && delayed_[1].due <= now;
  if (round) BeginRound();
  while (!delayed_.empty() && delayed_.front().due <= now) {
    Delayed d = std::move(delayed_.front());
    delayed_.pop_front();
    std::shared_ptr<PeerConnection> c = peers_[d.from].conn;
    if (!c || !failure().ok()) continue;
    if (d.eof.has_value()) {
      HandlePeerEof(*c, *d.eof);
      continue;
    }
    // Frames that arrived before a clean close are still delivered.
    if (Status s = Dispatch(d.from, d.kind, d.payload); !s.ok()) {
      if (!c->closed()) {
        c->Close(s);
      } else {
        Fail(Status::Error("lost rank " + std::to_string(d.from) + ": " + s.message()));
      }
    }
  }
  if (round) EndRound();
  if (delayed_.empty() || delay_timer_armed_) return;
  delay_timer_armed_ = true;
  delay_timer_.expires_at(delayed_.front().due);
  delay_timer_.async_wait([this](const asio::error_code& ec) {
    delay_timer_armed_ = false;
    if (!ec) DeliverDelayed();
  });
}

Status TcpTransport::CheckSendable(NodeId to, std::span<const uint8_t> frame) const {
  if (frame.size() <= options_.max_frame_bytes) return Status::Ok();
  Result<FrameHeader> h = DecodeHeader(frame);
  const std::string what = h.ok() ? std::string(MessageTypeName(h->type)) : "malformed";
  return Status::Error("cannot send a " + what + " message of " + std::to_string(frame.size()) +
                       " bytes to rank " + std::to_string(to) + ": larger than --max-frame-bytes " +
                       std::to_string(options_.max_frame_bytes) +
                       " (raise it on every rank, or use smaller batches)");
}

void TcpTransport::Send(NodeId to, std::vector<uint8_t> frame) {
  AUGUR_CHECK(to < options_.nodes, "send to rank %u of %u", to, options_.nodes);
  if (to != options_.rank) {
    if (Status s = CheckSendable(to, frame); !s.ok()) {
      Log(s.message());
      Fail(s);
      return;
    }
  }
  if (to == options_.rank) {
    asio::post(io_, [this, f = std::move(frame)]() mutable { DeliverSelf(std::move(f)); });
    return;
  }
  Outbox& box = *outboxes_[to];
  const bool on_io_thread = io_.get_executor().running_in_this_thread();
  bool post = false;
  {
    std::lock_guard<std::mutex> g(box.mu);
    // A worker's frame with nothing ahead of it: write it from this thread
    // and spare the hand-off to the I/O thread (the usual remote request).
    if (!on_io_thread && box.frames.empty() && !box.flush_posted && box.conn &&
        box.conn->TrySendNow(FrameKind::kData, frame)) {
      return;
    }
    box.frames.push_back(std::move(frame));
    post = !box.flush_posted;
    box.flush_posted = true;
  }
  if (on_io_thread) {
    Flush(to);  // a handler's reply: no need for another trip through the queue
  } else if (post) {
    asio::post(io_, [this, to] { Flush(to); });
  }
}

void TcpTransport::DeliverSelf(std::vector<uint8_t> frame) {
  Status s;
  {
    std::lock_guard<std::mutex> g(handler_mu_);
    s = receiver_.OnData(options_.rank, frame);
  }
  if (!s.ok()) {
    Log("frame to self rejected: " + s.message());
    Fail(s.WithContext("frame to self"));
  }
}

void TcpTransport::SetWaitCheck(std::function<bool()> stop, std::chrono::milliseconds period) {
  wait_check_ = std::move(stop);
  wait_check_period_ = std::max(period, std::chrono::milliseconds(1));
}

void TcpTransport::WaitParked(WakeSignal& signal) {
  std::vector<std::shared_ptr<PeerConnection>> owned;
  std::vector<pollfd> fds{pollfd{signal.fd(), POLLIN, 0}};
  std::unique_lock<std::mutex> reading(worker_read_mu_, std::defer_lock);
  if (options_.emulate_latency_seconds <= 0 && reading.try_lock()) {
    for (NodeId p = 0; p < options_.nodes; ++p) {
      std::shared_ptr<PeerConnection> c;
      {
        std::lock_guard<std::mutex> g(outboxes_[p]->mu);
        c = outboxes_[p]->conn;
      }
      if (!c) continue;
      const int fd = c->AcquireForWorker();
      if (fd < 0) continue;
      owned.push_back(std::move(c));
      fds.push_back(pollfd{fd, POLLIN, 0});
    }
    // Nothing to read (the I/O thread is reading): let another worker try.
    if (owned.empty()) reading.unlock();
  }
  const int timeout_ms = wait_check_ ? static_cast<int>(wait_check_period_.count()) : -1;
  while (signal.BeginBlocking()) {
    const int n = ::poll(fds.data(), fds.size(), timeout_ms);
    signal.EndBlocking();
    if (n == 0 && wait_check_()) break;  // timed out (only with a wait check): asked to stop
    if (n <= 0) continue;                // EINTR; nothing else can fail with valid descriptors
    for (size_t i = 1; i < fds.size();) {
      if (fds[i].revents == 0) {
        ++i;
        continue;
      }
      fds[i].revents = 0;
      const NodeId from = static_cast<NodeId>(owned[i - 1]->peer_rank());
      const bool still_owned =
          owned[i - 1]->ReadAsWorker([this, from](std::span<const uint8_t> payload) {
            std::lock_guard<std::mutex> g(handler_mu_);
            return receiver_.OnData(from, payload);
          });
      if (still_owned) {
        ++i;
      } else {
        owned.erase(owned.begin() + static_cast<std::ptrdiff_t>(i - 1));
        fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }
  for (const auto& c : owned) c->ReleaseFromWorker();
}

void TcpTransport::Flush(NodeId to) {
  Outbox& box = *outboxes_[to];
  // Held while the frames reach the connection, so a worker's TrySendNow
  // cannot overtake them.
  std::lock_guard<std::mutex> g(box.mu);
  box.flush_posted = false;
  Peer& peer = peers_[to];
  for (auto& f : box.frames) {
    if (peer.conn) {
      peer.conn->Send(FrameKind::kData, std::move(f));
    } else {
      peer.pending.push_back(std::move(f));
    }
  }
  box.frames.clear();
}

bool TcpTransport::WaitChecked(std::unique_lock<std::mutex>& g, const std::function<bool()>& done,
                               const char* interrupted, std::optional<double> limit_seconds) {
  const auto over = [&] { return !failure_.ok() || done(); };
  const auto deadline = std::chrono::steady_clock::now() + ToDuration(limit_seconds.value_or(0));
  while (true) {
    std::optional<std::chrono::nanoseconds> step;
    if (wait_check_) step = wait_check_period_;
    if (limit_seconds.has_value()) {
      const std::chrono::nanoseconds left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::nanoseconds::zero()) return over();
      if (!step.has_value() || left < *step) step = left;
    }
    if (!step.has_value()) {
      cv_.wait(g, over);
      return true;
    }
    if (cv_.wait_for(g, *step, over)) return true;
    if (!wait_check_) continue;
    g.unlock();  // the check may take other locks (the Python interpreter's)
    const bool stop = wait_check_();
    g.lock();
    if (stop && failure_.ok()) failure_ = Status::Error(interrupted);
  }
}

Status TcpTransport::Finish(std::optional<double> limit_seconds) {
  asio::post(io_, [this] { SayGoodbye(); });
  std::unique_lock<std::mutex> g(mu_);
  if (!WaitChecked(
          g, [&] { return finished_; }, "interrupted while saying goodbye", limit_seconds)) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g s", *limit_seconds);
    failure_ = Status::Error(std::string("no goodbye from every peer within ") + seconds +
                             " after this node stopped (a peer still training?)");
  }
  return failure_;
}

void TcpTransport::SayGoodbye() {
  local_done_ = true;
  for (NodeId p = 0; p < options_.nodes; ++p) {
    if (p == options_.rank) continue;
    Flush(p);
    if (peers_[p].conn) peers_[p].conn->Send(FrameKind::kGoodbye, {});
    MaybeShutdown(p);
  }
  CheckFinished();
}

void TcpTransport::MaybeShutdown(NodeId p) {
  if (local_done_ && peers_[p].goodbye_received && peers_[p].conn)
    peers_[p].conn->ShutdownSendWhenFlushed();
}

void TcpTransport::OnPeerEof(PeerConnection& c, const Status& status) {
  if (options_.emulate_latency_seconds <= 0) {
    HandlePeerEof(c, status);
    return;
  }
  // Frames still in the delay queue come first; the EOF waits behind them.
  delayed_.push_back(Delayed{SteadyClock::now() + ToDuration(options_.emulate_latency_seconds),
                             static_cast<NodeId>(c.peer_rank()),
                             FrameKind::kGoodbye,
                             {},
                             status});
  DeliverDelayed();
}

void TcpTransport::HandlePeerEof(PeerConnection& c, const Status& status) {
  if (c.closed()) return;
  const NodeId p = static_cast<NodeId>(c.peer_rank());
  if (!status.ok()) {
    c.Close(status);
  } else if (!peers_[p].goodbye_received) {
    c.Close(
        Status::Error("connection closed without a goodbye (the process exited or was killed)"));
  }
}

void TcpTransport::OnClosed(PeerConnection& c, const Status& reason) {
  PeerConnection* conn = &c;
  const bool attached = c.was_authenticated() && peers_[c.peer_rank()].conn.get() == conn;
  if (reason.ok() && attached) {
    peers_[c.peer_rank()].closed_cleanly = true;
  } else if (attached) {
    Log("dropped connection to " + c.Describe() + ": " + reason.message());
    Fail(Status::Error("lost rank " + std::to_string(c.peer_rank()) + ": " + reason.message()));
  } else if (c.role() == PeerConnection::Role::kDialer) {
    Log("could not connect to " + c.Describe() + ": " + reason.message());
    Fail(Status::Error("cannot join the cluster: handshake with " + c.Describe() +
                       " failed: " + reason.message()));
  } else {
    Log("dropped connection from " + c.Describe() + ": " + reason.message());
  }
  std::erase_if(unattached_, [conn](const auto& u) { return u.get() == conn; });
  CheckFinished();
}

void TcpTransport::CheckFinished() {
  if (!local_done_) return;
  for (NodeId p = 0; p < options_.nodes; ++p)
    if (p != options_.rank && !peers_[p].closed_cleanly) return;
  {
    std::lock_guard<std::mutex> g(mu_);
    finished_ = true;
  }
  cv_.notify_all();
  asio::error_code ec;
  acceptor_.close(ec);
}

size_t TcpTransport::CountStrangers() const {
  return static_cast<size_t>(
      std::count_if(unattached_.begin(), unattached_.end(),
                    [](const auto& c) { return c->role() == PeerConnection::Role::kAcceptor; }));
}

void TcpTransport::DropSlowHandshakes(SteadyClock::time_point now) {
  const auto limit = ToDuration(options_.handshake_timeout_seconds);
  std::vector<std::shared_ptr<PeerConnection>> slow;
  for (const auto& c : unattached_)
    if (c->role() == PeerConnection::Role::kAcceptor && now - c->created() > limit)
      slow.push_back(c);
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%g s", options_.handshake_timeout_seconds);
  for (const auto& c : slow) {
    c->Close(
        Status::Error(std::string("no handshake within ") + seconds + " (--handshake-timeout)"));
  }
}

void TcpTransport::Tick() {
  const auto now = SteadyClock::now();
  const auto timeout = ToDuration(options_.peer_timeout_seconds);
  DropSlowHandshakes(now);
  for (NodeId p = 0; p < options_.nodes; ++p) {
    if (p == options_.rank || peers_[p].closed_cleanly) continue;
    const std::shared_ptr<PeerConnection>& c = peers_[p].conn;
    if (c && !c->closed()) c->Send(FrameKind::kHeartbeat, {});
    const auto last = c ? c->last_receive() : start_;
    if (now - last > timeout && failure().ok()) {
      const std::string what = c ? "nothing received from " + c->Describe() + " for "
                                 : "rank " + std::to_string(p) + " did not connect within ";
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g s", options_.peer_timeout_seconds);
      const std::string why =
          "lost rank " + std::to_string(p) + ": " + what + seconds + " (--peer-timeout)";
      Fail(Status::Error(why));  // the run's error: printed once, by the command
    }
  }
  const double period =
      std::min({1.0, options_.peer_timeout_seconds / 4, options_.handshake_timeout_seconds / 4});
  tick_timer_.expires_after(ToDuration(period));
  tick_timer_.async_wait([this](const asio::error_code& ec) {
    if (!ec) Tick();
  });
}

}  // namespace augur::tcp

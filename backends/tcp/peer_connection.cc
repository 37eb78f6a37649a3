#include "backends/tcp/peer_connection.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/base/check.h"

namespace augur::tcp {

namespace {

// Read buffer: small while the peer is a stranger (a whole handshake frame
// fits), large once it is a member.
constexpr size_t kStrangerReadBytes = kTransportHeaderBytes + kMaxHandshakeFrameBytes;
constexpr size_t kMemberReadBytes = 256 * 1024;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool PeerConnection::WouldBlock(int err) { return err == EAGAIN || err == EWOULDBLOCK; }

PeerConnection::PeerConnection(asio::ip::tcp::socket socket, SocketPoller& poller, Role role,
                               int64_t expected_rank, const HandshakeConfig& handshake,
                               uint32_t max_frame_bytes, Listener& listener)
    : poller_(poller),
      role_(role),
      expected_rank_(expected_rank),
      handshake_(handshake),
      listener_(listener),
      max_frame_bytes_(max_frame_bytes),
      created_(std::chrono::steady_clock::now()),
      reader_(kMaxHandshakeFrameBytes, "the pre-authentication limit of"),
      state_(role == Role::kDialer ? State::kAwaitChallenge : State::kAwaitHello),
      last_receive_ns_(NowNs()) {
  asio::error_code ec;
  const auto remote = socket.remote_endpoint(ec);
  if (!ec) {
    remote_host_ = remote.address().to_string();
    remote_ = remote_host_ + ":" + std::to_string(remote.port());
  } else {
    remote_ = "unknown address";
  }
  local_ = socket.local_endpoint(ec);
  socket.set_option(asio::ip::tcp::no_delay(true), ec);
  const int fd = socket.release(ec);
  if (!ec && fd >= 0) {
    const int flags = ::fcntl(fd, F_GETFL, 0);
    if (flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0) {
      fd_ = fd;
    } else {
      ::close(fd);
    }
  }
}

PeerConnection::~PeerConnection() {
  if (fd_ >= 0) ::close(fd_);
}

std::string PeerConnection::Describe() const {
  if (was_authenticated_) return "rank " + std::to_string(peer_rank_) + " at " + remote_;
  if (peer_rank_ >= 0) {
    return remote_ + " claiming rank " + std::to_string(peer_rank_) + " (unauthenticated)";
  }
  return remote_ + " (unauthenticated)";
}

std::chrono::steady_clock::time_point PeerConnection::last_receive() const {
  return std::chrono::steady_clock::time_point(
      std::chrono::nanoseconds(last_receive_ns_.load(std::memory_order_relaxed)));
}

void PeerConnection::MarkReceived() { last_receive_ns_.store(NowNs(), std::memory_order_relaxed); }

PeerConnection::Received PeerConnection::ReceiveSome() {
  for (;;) {
    const std::span<uint8_t> space =
        reader_.Prepare(was_authenticated_ ? kMemberReadBytes : kStrangerReadBytes);
    const ssize_t n = ::recv(fd_, space.data(), space.size(), 0);
    if (n > 0) {
      MarkReceived();
      reader_.Commit(static_cast<size_t>(n));
      return Received::kData;
    }
    if (n == 0) return Received::kEof;
    if (errno == EINTR) continue;
    return WouldBlock(errno) ? Received::kWouldBlock : Received::kError;
  }
}

void PeerConnection::Start() {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (fd_ >= 0) {
      registered_events_ = EPOLLIN;
      poll_id_ = poller_.Add(fd_, registered_events_, weak_from_this());
    }
  }
  if (fd_ < 0) {
    Close(Status::Error("cannot make the socket non-blocking"));
    return;
  }
  if (role_ == Role::kDialer) {
    my_nonce_ = RandomNonce();
    Send(FrameKind::kHello, EncodeHello(MakeHello(handshake_, my_nonce_)));
  }
}

void PeerConnection::OnPollEvents(uint32_t events) {
  if (state_ == State::kClosed) return;
  bool handled = false;
  if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) != 0) {
    bool shut = false;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (!queue_.empty()) {
        handled = true;
        shut = WriteLocked();
      }
    }
    if (shut) MaybeFinish();
    if (state_ == State::kClosed) return;
  }
  if ((events & (EPOLLIN | EPOLLERR | EPOLLHUP)) != 0) {
    bool take = false;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (reader_owner_ == Reader::kNone && readable_) {
        reader_owner_ = Reader::kIo;
        take = true;
      } else if (reader_owner_ != Reader::kNone) {
        handled = true;  // its current reader will see the condition
      }
    }
    if (take) {
      ReadOnIo();
      return;
    }
  }
  if (!handled && (events & (EPOLLERR | EPOLLHUP)) != 0) {
    // Neither reading nor writing is pending: stop the level-triggered
    // report; the next write reports the error.
    std::lock_guard<std::mutex> g(mu_);
    if (poll_id_ != 0 && fd_ >= 0) {
      poller_.Remove(fd_, poll_id_);
      poll_id_ = 0;
    }
  }
}

void PeerConnection::ReadOnIo() {
  for (;;) {
    Frame f;
    while (state_ != State::kClosed) {
      Result<bool> next = reader_.Next(&f);
      if (!next.ok()) {
        Close(next.status());
        return;
      }
      if (!*next) break;
      if (Status s = HandleFrame(f); !s.ok()) {
        Close(s);
        return;
      }
    }
    if (state_ == State::kClosed) return;
    const Received r = ReceiveSome();
    if (r == Received::kData) continue;
    if (r == Received::kEof) {
      OnEof();
      return;
    }
    if (r == Received::kWouldBlock) break;
    Close(Status::Error(std::string("read failed: ") + std::strerror(errno)));
    return;
  }
  std::lock_guard<std::mutex> g(mu_);
  reader_owner_ = Reader::kNone;
  UpdateEventsLocked();
}

void PeerConnection::OnEof() {
  {
    std::lock_guard<std::mutex> g(mu_);
    readable_ = false;
    reader_owner_ = Reader::kNone;
    UpdateEventsLocked();
  }
  read_eof_ = true;
  Status s = reader_.CheckCleanEof();
  if (state_ != State::kOpen) {
    if (s.ok()) {
      s = Status::Error(state_ == State::kAwaitProof
                            ? "closed by the peer after our challenge (it refused our proof: "
                              "different --secret-file?)"
                            : "closed during the handshake");
    }
    Close(s);
    return;
  }
  listener_.OnPeerEof(*this, s);
  MaybeFinish();
}

Status PeerConnection::HandleFrame(const Frame& f) {
  if (state_ != State::kOpen) return HandleHandshake(f);
  switch (f.kind) {
    case FrameKind::kHello:
    case FrameKind::kChallenge:
    case FrameKind::kProof:
      return Status::Error(std::string("unexpected ") + FrameKindName(f.kind) +
                           " frame after the handshake");
    default:
      return listener_.OnFrame(*this, f);
  }
}

Status PeerConnection::HandleHandshake(const Frame& f) {
  const FrameKind want = state_ == State::kAwaitHello       ? FrameKind::kHello
                         : state_ == State::kAwaitChallenge ? FrameKind::kChallenge
                                                            : FrameKind::kProof;
  if (f.kind != want) {
    return Status::Error(std::string("expected a ") + FrameKindName(want) + " frame, got " +
                         FrameKindName(f.kind) + " (handshake required first)");
  }
  if (state_ == State::kAwaitHello) {
    Result<Hello> h = DecodeHello(f.payload);
    if (!h.ok()) return h.status();
    if (Status s = CheckHello(handshake_, *h); !s.ok()) return s;
    hello_ = *h;
    peer_rank_ = h->rank;
    my_nonce_ = RandomNonce();
    Send(FrameKind::kChallenge, EncodeChallenge(MakeChallenge(handshake_, hello_, my_nonce_)));
    state_ = State::kAwaitProof;
    return Status::Ok();
  }
  if (state_ == State::kAwaitChallenge) {
    Result<Challenge> ch = DecodeChallenge(f.payload);
    if (!ch.ok()) return ch.status();
    if (Status s = CheckChallenge(handshake_, my_nonce_, *ch, expected_rank_); !s.ok()) return s;
    peer_rank_ = ch->rank;
    peer_nonce_ = ch->nonce;
    Send(FrameKind::kProof, EncodeProof(MakeProof(handshake_, my_nonce_, *ch)));
  } else {
    Result<Proof> p = DecodeProof(f.payload);
    if (!p.ok()) return p.status();
    if (Status s = CheckProof(handshake_, hello_, my_nonce_, *p); !s.ok()) return s;
  }
  if (Status s = Protect(); !s.ok()) return s;
  state_ = State::kOpen;
  was_authenticated_ = true;
  {
    std::lock_guard<std::mutex> g(mu_);
    open_for_workers_ = true;
  }
  return listener_.OnAuthenticated(*this);
}

Status PeerConnection::Protect() {
  reader_.SetMaxFrameBytes(max_frame_bytes_ + static_cast<uint32_t>(kFrameTagBytes));
  const WireSecurity mode = handshake_.wire_security;
  if (mode == WireSecurity::kNone) return Status::Ok();
  const bool dialer = role_ == Role::kDialer;
  const uint32_t me = handshake_.rank, peer = static_cast<uint32_t>(peer_rank_);
  Result<FrameKeys> keys =
      dialer ? DeriveConnectionKeys(handshake_, me, peer, my_nonce_, peer_nonce_)
             : DeriveConnectionKeys(handshake_, peer, me, hello_.nonce, my_nonce_);
  if (!keys.ok()) return keys.status();
  Result<std::unique_ptr<FrameSealer>> sealer =
      FrameSealer::Create(mode, dialer ? keys->dialer_to_acceptor : keys->acceptor_to_dialer);
  if (!sealer.ok()) return sealer.status();
  Result<std::unique_ptr<FrameOpener>> opener =
      FrameOpener::Create(mode, dialer ? keys->acceptor_to_dialer : keys->dialer_to_acceptor);
  if (!opener.ok()) return opener.status();
  reader_.Protect(std::move(*opener));
  std::lock_guard<std::mutex> g(mu_);
  sealer_ = std::move(*sealer);
  return Status::Ok();
}

void PeerConnection::ShutdownSendWhenFlushed() {
  bool shut = false;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (shutdown_requested_) return;
    shutdown_requested_ = true;
    shut = WriteLocked();
  }
  if (shut) MaybeFinish();
}

void PeerConnection::MaybeFinish() {
  if (state_ == State::kClosed || !read_eof_) return;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (!send_shut_) return;
  }
  state_ = State::kClosed;
  CloseSocket();
  listener_.OnClosed(*this, Status::Ok());
}

void PeerConnection::CloseSocket() {
  std::unique_lock<std::mutex> g(mu_);
  open_for_workers_ = false;
  if (reader_owner_ == Reader::kWorker) {
    // Wakes the worker polling the socket; it hands the read side back.
    ::shutdown(fd_, SHUT_RDWR);
    reader_released_.wait(g, [this] { return reader_owner_ != Reader::kWorker; });
  }
  reader_owner_ = Reader::kNone;
  readable_ = false;
  write_closed_ = true;
  queue_.clear();
  if (fd_ >= 0) {
    if (poll_id_ != 0) poller_.Remove(fd_, poll_id_);
    ::close(fd_);
    fd_ = -1;
    poll_id_ = 0;
  }
}

void PeerConnection::Close(const Status& reason) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  CloseSocket();
  listener_.OnClosed(*this, reason.ok() ? Status::Error("closed") : reason);
}

}  // namespace augur::tcp

#include "backends/tcp/peer_connection.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <utility>

namespace augur::tcp {

namespace {
// Upper bound on frames per gather write (the kernel's iovec limit is 1024).
constexpr size_t kMaxFramesPerWrite = 256;
}  // namespace

PeerConnection::PeerConnection(asio::ip::tcp::socket socket, Role role, int64_t expected_rank,
                               const HandshakeConfig& handshake, uint32_t max_frame_bytes,
                               Listener& listener)
    : socket_(std::move(socket)),
      role_(role),
      expected_rank_(expected_rank),
      handshake_(handshake),
      listener_(listener),
      reader_(max_frame_bytes),
      state_(role == Role::kDialer ? State::kAwaitChallenge : State::kAwaitHello),
      last_receive_(std::chrono::steady_clock::now()) {
  asio::error_code ec;
  const auto remote = socket_.remote_endpoint(ec);
  if (!ec) {
    remote_host_ = remote.address().to_string();
    remote_ = remote_host_ + ":" + std::to_string(remote.port());
  } else {
    remote_ = "unknown address";
  }
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  fd_ = socket_.native_handle();
}

std::string PeerConnection::Describe() const {
  if (was_authenticated_) return "rank " + std::to_string(peer_rank_) + " at " + remote_;
  if (peer_rank_ >= 0) {
    return remote_ + " claiming rank " + std::to_string(peer_rank_) + " (unauthenticated)";
  }
  return remote_ + " (unauthenticated)";
}

asio::ip::tcp::endpoint PeerConnection::local_endpoint() const {
  asio::error_code ec;
  return socket_.local_endpoint(ec);
}

void PeerConnection::Start() {
  if (role_ == Role::kDialer) {
    my_nonce_ = RandomNonce();
    Send(FrameKind::kHello, EncodeHello(MakeHello(handshake_, my_nonce_)));
  }
  ReadMore();
}

void PeerConnection::ReadMore() {
  if (state_ == State::kClosed || read_eof_) return;
  const std::span<uint8_t> space = reader_.Prepare();
  socket_.async_read_some(
      asio::buffer(space.data(), space.size()),
      [self = shared_from_this()](const asio::error_code& ec, size_t n) { self->OnRead(ec, n); });
}

void PeerConnection::OnRead(const asio::error_code& ec, size_t n) {
  if (state_ == State::kClosed) return;
  if (ec == asio::error::eof) {
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
    return;
  }
  if (ec) {
    Close(Status::Error("read failed: " + ec.message()));
    return;
  }
  last_receive_ = std::chrono::steady_clock::now();
  reader_.Commit(n);
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
  ReadMore();
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
    Send(FrameKind::kProof, EncodeProof(MakeProof(handshake_, my_nonce_, *ch)));
    state_ = State::kOpen;
    was_authenticated_ = true;
    return listener_.OnAuthenticated(*this);
  }
  Result<Proof> p = DecodeProof(f.payload);
  if (!p.ok()) return p.status();
  if (Status s = CheckProof(handshake_, hello_, my_nonce_, *p); !s.ok()) return s;
  state_ = State::kOpen;
  was_authenticated_ = true;
  return listener_.OnAuthenticated(*this);
}

void PeerConnection::Send(FrameKind kind, std::vector<uint8_t> payload) {
  if (state_ == State::kClosed) return;
  std::lock_guard<std::mutex> g(write_mu_);
  if (shutdown_requested_) return;
  const uint32_t length = static_cast<uint32_t>(payload.size());
  queue_.push_back(Outgoing{EncodeTransportHeader(kind, length), std::move(payload)});
  WriteMore();  // the queue is not empty: never shuts down here
}

bool PeerConnection::TrySendNow(FrameKind kind, std::vector<uint8_t>& payload) {
  std::lock_guard<std::mutex> g(write_mu_);
  if (write_closed_ || shutdown_requested_ || writing_ || !queue_.empty()) return false;
  Outgoing o{EncodeTransportHeader(kind, static_cast<uint32_t>(payload.size())), {}};
  iovec iov[2] = {{o.header.data(), o.header.size()}, {payload.data(), payload.size()}};
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = payload.empty() ? 1 : 2;
  const ssize_t n = ::sendmsg(fd_, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
  if (n >= 0 && static_cast<size_t>(n) == o.header.size() + payload.size()) return true;
  // The socket took part of it, or none (full, interrupted, or an error the
  // I/O thread's own write will report): the I/O thread writes the rest.
  o.payload = std::move(payload);
  o.written = n > 0 ? static_cast<size_t>(n) : 0;
  queue_.push_back(std::move(o));
  asio::post(socket_.get_executor(), [self = shared_from_this()] { self->ResumeWriting(); });
  return true;
}

void PeerConnection::ResumeWriting() {
  bool shut = false;
  {
    std::lock_guard<std::mutex> g(write_mu_);
    shut = WriteMore();
  }
  if (shut) MaybeFinish();
}

bool PeerConnection::WriteMore() {
  if (writing_ || write_closed_) return false;
  if (queue_.empty()) {
    if (shutdown_requested_ && !send_shut_) {
      asio::error_code ec;
      socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
      send_shut_ = true;
      return true;
    }
    return false;
  }
  in_flight_.clear();
  buffers_.clear();
  while (!queue_.empty() && in_flight_.size() < kMaxFramesPerWrite) {
    in_flight_.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  for (const Outgoing& o : in_flight_) {
    size_t skip = o.written;  // only the first frame may be partly written
    if (skip < o.header.size()) {
      buffers_.push_back(asio::buffer(o.header.data() + skip, o.header.size() - skip));
      skip = 0;
    } else {
      skip -= o.header.size();
    }
    if (o.payload.size() > skip)
      buffers_.push_back(asio::buffer(o.payload.data() + skip, o.payload.size() - skip));
  }
  writing_ = true;
  asio::async_write(
      socket_, buffers_,
      [self = shared_from_this()](const asio::error_code& ec, size_t) { self->OnWritten(ec); });
  return false;
}

void PeerConnection::OnWritten(const asio::error_code& ec) {
  bool shut = false;
  {
    std::lock_guard<std::mutex> g(write_mu_);
    writing_ = false;
    if (state_ == State::kClosed) return;
    if (!ec) shut = WriteMore();
  }
  if (ec) {
    Close(Status::Error("write failed: " + ec.message()));
    return;
  }
  if (shut) MaybeFinish();
}

void PeerConnection::ShutdownSendWhenFlushed() {
  bool shut = false;
  {
    std::lock_guard<std::mutex> g(write_mu_);
    if (shutdown_requested_) return;
    shutdown_requested_ = true;
    shut = WriteMore();
  }
  if (shut) MaybeFinish();
}

void PeerConnection::MaybeFinish() {
  if (state_ == State::kClosed || !read_eof_) return;
  {
    std::lock_guard<std::mutex> g(write_mu_);
    if (!send_shut_) return;
  }
  state_ = State::kClosed;
  CloseSocket();
  listener_.OnClosed(*this, Status::Ok());
}

void PeerConnection::CloseSocket() {
  std::lock_guard<std::mutex> g(write_mu_);
  write_closed_ = true;
  fd_ = -1;
  queue_.clear();
  asio::error_code ec;
  socket_.close(ec);
}

void PeerConnection::Close(const Status& reason) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  CloseSocket();
  listener_.OnClosed(*this, reason.ok() ? Status::Error("closed") : reason);
}

}  // namespace augur::tcp

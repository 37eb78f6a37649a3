#include "backends/tcp/peer_connection.h"

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
  if (state_ == State::kClosed || shutdown_requested_) return;
  Outgoing o{EncodeTransportHeader(kind, static_cast<uint32_t>(payload.size())),
             std::move(payload)};
  queue_.push_back(std::move(o));
  WriteMore();
}

void PeerConnection::WriteMore() {
  if (writing_ || state_ == State::kClosed) return;
  if (queue_.empty()) {
    if (shutdown_requested_ && !send_shut_) {
      asio::error_code ec;
      socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
      send_shut_ = true;
      MaybeFinish();
    }
    return;
  }
  in_flight_.clear();
  buffers_.clear();
  while (!queue_.empty() && in_flight_.size() < kMaxFramesPerWrite) {
    in_flight_.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  for (const Outgoing& o : in_flight_) {
    buffers_.push_back(asio::buffer(o.header));
    if (!o.payload.empty()) buffers_.push_back(asio::buffer(o.payload));
  }
  writing_ = true;
  asio::async_write(
      socket_, buffers_,
      [self = shared_from_this()](const asio::error_code& ec, size_t) { self->OnWritten(ec); });
}

void PeerConnection::OnWritten(const asio::error_code& ec) {
  writing_ = false;
  if (state_ == State::kClosed) return;
  if (ec) {
    Close(Status::Error("write failed: " + ec.message()));
    return;
  }
  WriteMore();
}

void PeerConnection::ShutdownSendWhenFlushed() {
  if (shutdown_requested_) return;
  shutdown_requested_ = true;
  WriteMore();
}

void PeerConnection::MaybeFinish() {
  if (state_ == State::kClosed || !read_eof_ || !send_shut_) return;
  state_ = State::kClosed;
  asio::error_code ec;
  socket_.close(ec);
  listener_.OnClosed(*this, Status::Ok());
}

void PeerConnection::Close(const Status& reason) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  asio::error_code ec;
  socket_.close(ec);
  queue_.clear();
  listener_.OnClosed(*this, reason.ok() ? Status::Error("closed") : reason);
}

}  // namespace augur::tcp

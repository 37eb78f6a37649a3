// PeerConnection: the sending side (peer_connection.h). A frame is protected
// (frame_protection.h) and queued under the send lock; whoever holds it
// writes as much of the queue as the socket takes in one gather write, and
// the poller's write interest stays on only while something is left.
#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "backends/tcp/peer_connection.h"
#include "core/base/check.h"

namespace augur::tcp {

namespace {
// Upper bound on frames per gather write (three iovecs each; the kernel's limit is 1024).
constexpr size_t kMaxFramesPerWrite = 256;
}  // namespace

Result<PeerConnection::Outgoing> PeerConnection::MakeOutgoingLocked(FrameKind kind,
                                                                    std::vector<uint8_t> payload) {
  const size_t tag_bytes = sealer_ ? kFrameTagBytes : 0;
  // The transport refuses larger frames before they get here (TcpTransport::Send).
  AUGUR_CHECK(payload.size() + tag_bytes <= UINT32_MAX, "%s frame of %zu bytes",
              FrameKindName(kind), payload.size());
  Outgoing o{EncodeTransportHeader(kind, static_cast<uint32_t>(payload.size() + tag_bytes)),
             std::move(payload),
             {},
             tag_bytes,
             0};
  if (sealer_) {
    if (Status s = sealer_->Seal(o.header, o.payload, o.tag); !s.ok()) return s;
  }
  return o;
}

size_t PeerConnection::Outgoing::Unwritten(iovec* iov) const {
  size_t count = 0;
  size_t skip = written;
  const std::pair<const uint8_t*, size_t> parts[] = {
      {header.data(), header.size()}, {payload.data(), payload.size()}, {tag.data(), tag_bytes}};
  for (const auto& [data, size] : parts) {
    if (skip >= size) {
      skip -= size;
      continue;
    }
    iov[count++] = {const_cast<uint8_t*>(data) + skip, size - skip};
    skip = 0;
  }
  return count;
}

void PeerConnection::Send(FrameKind kind, std::vector<uint8_t> payload) {
  if (state_ == State::kClosed) return;
  bool shut = false;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (shutdown_requested_ || write_closed_) return;
    Result<Outgoing> o = MakeOutgoingLocked(kind, std::move(payload));
    if (!o.ok()) {
      OnWriteError(o.status().message());
      return;
    }
    queue_.push_back(std::move(*o));
    shut = WriteLocked();
  }
  if (shut) MaybeFinish();
}

bool PeerConnection::TrySendNow(FrameKind kind, std::vector<uint8_t>& payload) {
  std::lock_guard<std::mutex> g(mu_);
  if (write_closed_ || shutdown_requested_ || !queue_.empty() || fd_ < 0) return false;
  Result<Outgoing> o = MakeOutgoingLocked(kind, std::move(payload));
  if (!o.ok()) {
    OnWriteError(o.status().message());  // the connection is going; the frame with it
    return true;
  }
  iovec iov[3];
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = o->Unwritten(iov);
  ssize_t n;
  do {
    n = ::sendmsg(fd_, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  if (n >= 0 && static_cast<size_t>(n) == o->total()) return true;
  if (n < 0 && !WouldBlock(errno)) {
    OnWriteError(std::strerror(errno));  // the connection is going; the frame with it
    return true;
  }
  // The socket took part of it, or none: the I/O thread writes the rest once it is writable.
  o->written = n > 0 ? static_cast<size_t>(n) : 0;
  queue_.push_back(std::move(*o));
  UpdateEventsLocked();
  return true;
}

bool PeerConnection::WriteLocked() {
  while (!queue_.empty() && !write_closed_) {
    iovec iov[3 * kMaxFramesPerWrite];
    size_t count = 0;
    size_t frames = 0;
    for (auto it = queue_.begin(); it != queue_.end() && frames < kMaxFramesPerWrite;
         ++it, ++frames) {
      count += it->Unwritten(iov + count);  // only the first frame may be partly written
    }
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = count;
    const ssize_t n = ::sendmsg(fd_, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (WouldBlock(errno)) break;
      OnWriteError(std::strerror(errno));
      return false;
    }
    size_t left = static_cast<size_t>(n);
    while (left > 0) {
      Outgoing& o = queue_.front();
      const size_t rest = o.total() - o.written;
      if (left < rest) {
        o.written += left;
        break;
      }
      left -= rest;
      queue_.pop_front();
    }
  }
  bool shut = false;
  if (queue_.empty() && shutdown_requested_ && !send_shut_ && !write_closed_) {
    ::shutdown(fd_, SHUT_WR);
    send_shut_ = true;
    shut = true;
  }
  UpdateEventsLocked();
  return shut;
}

void PeerConnection::OnWriteError(const std::string& why) {
  write_closed_ = true;
  queue_.clear();
  UpdateEventsLocked();
  asio::post(poller_.io(), [self = shared_from_this(), why] {
    self->Close(Status::Error("write failed: " + why));
  });
}

void PeerConnection::UpdateEventsLocked() {
  if (fd_ < 0 || poll_id_ == 0) return;
  uint32_t events = 0;
  if (readable_ && reader_owner_ != Reader::kWorker) events |= EPOLLIN;
  if (!queue_.empty() && !write_closed_) events |= EPOLLOUT;
  if (events == registered_events_) return;
  registered_events_ = events;
  poller_.Modify(fd_, poll_id_, events);
}

}  // namespace augur::tcp

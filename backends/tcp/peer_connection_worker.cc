// PeerConnection: reading on a parked worker's thread (peer_connection.h,
// "Receiving"). A worker that parks takes the connection's read side from the
// I/O thread (AcquireForWorker), reads and dispatches frames itself until its
// wait is over, and hands the read side back (ReleaseFromWorker, HandToIo),
// so a reply wakes the waiting thread directly.
#include <utility>

#include "backends/tcp/peer_connection.h"
#include "core/base/check.h"

namespace augur::tcp {

int PeerConnection::AcquireForWorker() {
  std::lock_guard<std::mutex> g(mu_);
  if (!open_for_workers_ || !readable_ || reader_owner_ != Reader::kNone || fd_ < 0) return -1;
  reader_owner_ = Reader::kWorker;
  UpdateEventsLocked();
  return fd_;
}

void PeerConnection::ReleaseFromWorker() {
  std::lock_guard<std::mutex> g(mu_);
  if (reader_owner_ != Reader::kWorker) return;
  reader_owner_ = Reader::kNone;
  UpdateEventsLocked();  // input pending meanwhile is reported to the I/O thread at once
  reader_released_.notify_all();
}

void PeerConnection::HandToIo(std::function<void(PeerConnection&)> then) {
  {
    std::lock_guard<std::mutex> g(mu_);
    // Input stays unregistered until the I/O thread's own read gives it back.
    reader_owner_ = Reader::kIo;
    reader_released_.notify_all();
  }
  asio::post(poller_.io(), [self = shared_from_this(), then = std::move(then)] {
    if (!self->closed()) then(*self);
  });
}

bool PeerConnection::ReadAsWorker(const DataSink& sink) {
  for (;;) {
    Frame f;
    for (;;) {
      Result<bool> next = reader_.Next(&f);
      if (!next.ok()) {
        HandToIo([s = next.status()](PeerConnection& c) { c.Close(s); });
        return false;
      }
      if (!*next) break;
      if (f.kind == FrameKind::kData) {
        if (Status s = sink(f.payload); !s.ok()) {
          HandToIo([s](PeerConnection& c) { c.Close(s); });
          return false;
        }
      } else if (f.kind != FrameKind::kHeartbeat) {
        // A control frame (goodbye): the I/O thread handles it, then reads on.
        HandToIo([kind = f.kind, payload = std::vector<uint8_t>(
                                     f.payload.begin(), f.payload.end())](PeerConnection& c) {
          if (Status s = c.HandleFrame(Frame{kind, payload}); !s.ok()) {
            c.Close(s);
          } else if (!c.closed()) {
            c.ReadOnIo();
          }
        });
        return false;
      }
    }
    const Received r = ReceiveSome();
    if (r == Received::kData) continue;
    if (r == Received::kEof) {
      HandToIo([](PeerConnection& c) { c.OnEof(); });
      return false;
    }
    if (r == Received::kWouldBlock) return true;
    HandToIo([why = std::string(std::strerror(errno))](PeerConnection& c) {
      c.Close(Status::Error("read failed: " + why));
    });
    return false;
  }
}

}  // namespace augur::tcp

// FrameReader: reassembles transport frames from a byte stream.
//
// The connection reads socket bytes straight into Prepare()'s span, commits
// them, then drains whole frames with Next(). Every header is validated before
// its payload is buffered (so an oversized length is refused before any
// allocation), and a kData payload must be exactly one valid core frame
// (core/codec DecodeHeader, body length consistent). Once Protect()ed, every
// frame is authenticated (and decrypted) before it is returned, and one that
// fails is an error; a long frame is authenticated piece by piece as its bytes
// arrive, and returned only once its tag checks. Errors are one-line
// reasons suitable for "dropped connection from PEER: REASON".
// Owned by one connection; used by its current reader only (the I/O thread
// or a parked worker, see peer_connection.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "backends/tcp/frame_protection.h"
#include "backends/tcp/transport_frame.h"
#include "core/base/status.h"

namespace augur::tcp {

struct Frame {
  FrameKind kind = FrameKind::kData;
  std::span<const uint8_t> payload;  // valid until the next Prepare()
};

class FrameReader {
 public:
  // `max_frame_bytes` limits the payload a header may declare, checked
  // before anything is buffered for it.
  // `limit_name` names the limit in errors.
  explicit FrameReader(uint32_t max_frame_bytes, const char* limit_name = "--max-frame-bytes")
      : max_frame_bytes_(max_frame_bytes), limit_name_(limit_name) {}

  // Applies to the next header onwards.
  void SetMaxFrameBytes(uint32_t max_frame_bytes, const char* limit_name = "--max-frame-bytes") {
    max_frame_bytes_ = max_frame_bytes;
    limit_name_ = limit_name;
  }
  // From the next frame on, every frame must carry a valid tag for `opener`'s
  // key and sequence (frame_protection.h); the payload returned excludes it.
  void Protect(std::unique_ptr<FrameOpener> opener) { opener_ = std::move(opener); }

  // Space to read into: at least `min_bytes`, more if the frame being
  // assembled needs it. Invalidates payload spans returned earlier.
  std::span<uint8_t> Prepare(size_t min_bytes = 256 * 1024);
  // REQUIRES: n <= the size of the span the last Prepare() returned.
  void Commit(size_t n);
  // Sets *out to the next complete frame and returns true; false when more
  // bytes are needed; an error when the stream is malformed (the reader is
  // then unusable: drop the connection).
  Result<bool> Next(Frame* out);
  // At end of stream: an error if a partial frame is buffered ("truncated").
  Status CheckCleanEof() const;
  size_t buffered() const { return end_ - begin_; }
  // Bytes of buffer held (what a peer has made this reader allocate).
  size_t allocated() const { return buffer_.capacity(); }

 private:
  uint32_t max_frame_bytes_;
  const char* limit_name_;
  std::unique_ptr<FrameOpener> opener_;  // null: frames are not protected
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;  // first unconsumed byte
  size_t end_ = 0;    // one past the last committed byte
  size_t need_ = 0;   // bytes the frame at begin_ needs in total, 0 if unknown
  // Protected frames are authenticated as their bytes arrive: payload bytes
  // of the frame at begin_ the opener has absorbed so far.
  size_t absorbed_ = 0;
  Status AbsorbArrived(const TransportHeader& h, size_t have);
};

}  // namespace augur::tcp

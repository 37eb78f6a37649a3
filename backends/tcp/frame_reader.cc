#include "backends/tcp/frame_reader.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/codec/codec.h"

namespace augur::tcp {

std::span<uint8_t> FrameReader::Prepare(size_t min_bytes) {
  if (begin_ > 0) {  // compact: keep the partial frame at the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  size_t want = end_ + min_bytes;
  if (need_ > want) want = need_;
  if (buffer_.size() < want) buffer_.resize(want);
  return std::span<uint8_t>(buffer_.data() + end_, buffer_.size() - end_);
}

void FrameReader::Commit(size_t n) {
  AUGUR_CHECK(end_ + n <= buffer_.size(), "commit of %zu bytes past the prepared buffer", n);
  end_ += n;
}

Result<bool> FrameReader::Next(Frame* out) {
  const size_t have = end_ - begin_;
  if (have < kTransportHeaderBytes) return false;
  const std::span<const uint8_t> bytes(buffer_.data() + begin_, have);
  Result<TransportHeader> h = DecodeTransportHeader(bytes, max_frame_bytes_, limit_name_);
  if (!h.ok()) return h.status();
  const size_t total = kTransportHeaderBytes + h->payload_length;
  if (have < total) {
    need_ = total;
    // Authenticate what has arrived while the rest is on its way.
    if (opener_) {
      if (Status s = AbsorbArrived(*h, have); !s.ok()) {
        return s.WithContext(std::string(FrameKindName(h->kind)) + " frame");
      }
    }
    return false;
  }
  need_ = 0;
  std::span<const uint8_t> payload = bytes.subspan(kTransportHeaderBytes, h->payload_length);
  if (opener_) {
    if (h->payload_length < kFrameTagBytes) {
      return Status::Error(std::string(FrameKindName(h->kind)) + " frame of " +
                           std::to_string(h->payload_length) + " bytes has no room for its tag");
    }
    Status s = AbsorbArrived(*h, have);
    if (s.ok()) {
      const uint8_t* tag = payload.data() + payload.size() - kFrameTagBytes;
      s = opener_->Finish(std::span<const uint8_t, kFrameTagBytes>(tag, kFrameTagBytes));
    }
    absorbed_ = 0;
    if (!s.ok()) return s.WithContext(std::string(FrameKindName(h->kind)) + " frame");
    payload = payload.first(payload.size() - kFrameTagBytes);
  }
  if (h->kind == FrameKind::kData) {
    Result<FrameHeader> core = DecodeHeader(payload);
    if (!core.ok()) return core.status().WithContext("data frame");
    if (kHeaderBytes + uint64_t{core->body_length} != payload.size()) {
      return Status::Error("data frame of " + std::to_string(payload.size()) +
                           " bytes carries a core frame declaring " +
                           std::to_string(kHeaderBytes + uint64_t{core->body_length}));
    }
  }
  begin_ += total;
  out->kind = h->kind;
  out->payload = payload;
  return true;
}

Status FrameReader::AbsorbArrived(const TransportHeader& h, size_t have) {
  if (h.payload_length < kFrameTagBytes) return Status::Ok();  // refused once complete
  if (!opener_->opening()) {
    const std::span<const uint8_t> header(buffer_.data() + begin_, kTransportHeaderBytes);
    if (Status s = opener_->Begin(header); !s.ok()) return s;
  }
  const size_t body = h.payload_length - kFrameTagBytes;
  const size_t arrived = std::min(have - kTransportHeaderBytes, body);
  if (arrived <= absorbed_) return Status::Ok();
  uint8_t* from = buffer_.data() + begin_ + kTransportHeaderBytes + absorbed_;
  if (Status s = opener_->Absorb(std::span<uint8_t>(from, arrived - absorbed_)); !s.ok()) return s;
  absorbed_ = arrived;
  return Status::Ok();
}

Status FrameReader::CheckCleanEof() const {
  const size_t have = end_ - begin_;
  if (have == 0) return Status::Ok();
  std::string expected = "a header";
  if (need_ > 0) expected = std::to_string(need_) + " bytes";
  return Status::Error("truncated frame: stream ended after " + std::to_string(have) + " of " +
                       expected);
}

}  // namespace augur::tcp

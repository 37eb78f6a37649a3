#include "core/codec/codec.h"

#include <cstring>
#include <string>

namespace augur {

const char* MessageTypeName(MessageType type) {
  switch (type) {
    case MessageType::kPullRequest:
      return "pull-request";
    case MessageType::kPullResponse:
      return "pull-response";
    case MessageType::kPushRequest:
      return "push-request";
    case MessageType::kPushAck:
      return "push-ack";
    case MessageType::kSetRequest:
      return "set-request";
    case MessageType::kSetAck:
      return "set-ack";
    case MessageType::kBarrierArrive:
      return "barrier-arrive";
    case MessageType::kBarrierRelease:
      return "barrier-release";
    case MessageType::kLocalizeRequest:
      return "localize-request";
    case MessageType::kHandover:
      return "handover";
    case MessageType::kOwnerUpdate:
      return "owner-update";
    case MessageType::kReplicaGrant:
      return "replica-grant";
    case MessageType::kSyncRequest:
      return "sync-request";
    case MessageType::kSyncResponse:
      return "sync-response";
    case MessageType::kBundle:
      return "bundle";
  }
  return "unknown";
}

namespace {

// Appends by copying (insert), never zero-filling first as resize() would:
// the values array of a pull response is most of the frame.
template <typename T>
void Put(std::vector<uint8_t>* out, T v) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(&v);  // hosts are little-endian
  out->insert(out->end(), bytes, bytes + sizeof(T));
}

template <typename T>
void PutArray(std::vector<uint8_t>* out, const std::vector<T>& v) {
  Put<uint32_t>(out, static_cast<uint32_t>(v.size()));
  const auto* bytes = reinterpret_cast<const uint8_t*>(v.data());
  if (!v.empty()) out->insert(out->end(), bytes, bytes + v.size() * sizeof(T));
}

// Bounds-checked sequential reader.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  template <typename T>
  bool Get(T* v) {
    if (bytes_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  template <typename T>
  bool GetArray(std::vector<T>* v) {
    uint32_t n = 0;
    if (!Get(&n)) return false;
    const uint64_t need = static_cast<uint64_t>(n) * sizeof(T);
    if (bytes_.size() - pos_ < need) return false;
    v->resize(n);
    if (n > 0) std::memcpy(v->data(), bytes_.data() + pos_, need);
    pos_ += need;
    return true;
  }
  // The bytes of an array of T, in place.
  template <typename T>
  bool GetArrayBytes(std::span<const uint8_t>* v) {
    uint32_t n = 0;
    if (!Get(&n)) return false;
    const uint64_t need = static_cast<uint64_t>(n) * sizeof(T);
    if (bytes_.size() - pos_ < need) return false;
    *v = bytes_.subspan(pos_, need);
    pos_ += need;
    return true;
  }
  size_t remaining() const { return bytes_.size() - pos_; }

 private:
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

constexpr size_t kFixedBodyBytes = 4 + 4 + 8 + 4 + 4 + 4;

}  // namespace

size_t EncodedSize(const Message& m) {
  return kHeaderBytes + kFixedBodyBytes + m.keys.size() * sizeof(Key) +
         m.slots.size() * sizeof(uint32_t) + m.values.size() * sizeof(float);
}

void EncodeTo(const Message& m, std::vector<uint8_t>* out) {
  const size_t start = out->size();
  out->reserve(start + EncodedSize(m));
  Put<uint16_t>(out, kWireMagic);
  Put<uint8_t>(out, kWireVersion);
  Put<uint8_t>(out, static_cast<uint8_t>(m.type));
  Put<uint32_t>(out, m.src);
  Put<uint32_t>(out, static_cast<uint32_t>(EncodedSize(m) - kHeaderBytes));
  Put<uint32_t>(out, 0);
  Put<uint32_t>(out, m.origin);
  Put<uint32_t>(out, m.aux);
  Put<uint64_t>(out, m.op_id);
  PutArray(out, m.keys);
  PutArray(out, m.slots);
  PutArray(out, m.values);
}

std::vector<uint8_t> Encode(const Message& m) {
  std::vector<uint8_t> out;
  EncodeTo(m, &out);
  return out;
}

Result<FrameHeader> DecodeHeader(std::span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderBytes) {
    return Status::Error("truncated header: " + std::to_string(bytes.size()) + " of " +
                         std::to_string(kHeaderBytes) + " bytes");
  }
  Reader r(bytes);
  uint16_t magic = 0;
  uint8_t version = 0, type = 0;
  uint32_t reserved = 0;
  FrameHeader h;
  r.Get(&magic);
  r.Get(&version);
  r.Get(&type);
  r.Get(&h.src);
  r.Get(&h.body_length);
  r.Get(&reserved);
  if (magic != kWireMagic) return Status::Error("bad magic (not an Augur frame)");
  if (version != kWireVersion) {
    return Status::Error("protocol version " + std::to_string(version) + ", expected " +
                         std::to_string(kWireVersion));
  }
  if (type == 0 || type > static_cast<uint8_t>(MessageType::kMaxType)) {
    return Status::Error("unknown message type " + std::to_string(type));
  }
  if (h.body_length > kMaxBodyBytes) {
    return Status::Error("body length " + std::to_string(h.body_length) + " exceeds max " +
                         std::to_string(kMaxBodyBytes));
  }
  h.version = version;
  h.type = static_cast<MessageType>(type);
  return h;
}

Result<FrameView> DecodeView(std::span<const uint8_t> frame) {
  Result<FrameHeader> header = DecodeHeader(frame);
  if (!header.ok()) return header.status();
  if (frame.size() != kHeaderBytes + header->body_length) {
    return Status::Error("frame is " + std::to_string(frame.size()) + " bytes, header says " +
                         std::to_string(kHeaderBytes + header->body_length));
  }
  if (header->type == MessageType::kBundle)
    return Status::Error("a bundle is not a message (SplitBundle it first)");
  FrameView v;
  Message& m = v.message;
  m.type = header->type;
  m.src = header->src;
  Reader r(frame.subspan(kHeaderBytes));
  if (!r.Get(&m.origin) || !r.Get(&m.aux) || !r.Get(&m.op_id) || !r.GetArray(&m.keys) ||
      !r.GetArray(&m.slots) || !r.GetArrayBytes<float>(&v.value_bytes)) {
    return Status::Error(std::string("truncated ") + MessageTypeName(m.type) + " body");
  }
  if (r.remaining() != 0) {
    return Status::Error(std::to_string(r.remaining()) + " trailing bytes after " +
                         MessageTypeName(m.type) + " body");
  }
  return v;
}

Result<Message> Decode(std::span<const uint8_t> frame) {
  Result<FrameView> v = DecodeView(frame);
  if (!v.ok()) return v.status();
  Message& m = v->message;
  m.values.resize(v->value_count());
  if (!m.values.empty()) std::memcpy(m.values.data(), v->value_bytes.data(), v->value_bytes.size());
  return std::move(m);
}

void EncodeBundle(NodeId src, std::span<const Message* const> messages, std::vector<uint8_t>* out) {
  size_t body = 0;
  for (const Message* m : messages) body += EncodedSize(*m);
  out->reserve(out->size() + kHeaderBytes + body);
  Put<uint16_t>(out, kWireMagic);
  Put<uint8_t>(out, kWireVersion);
  Put<uint8_t>(out, static_cast<uint8_t>(MessageType::kBundle));
  Put<uint32_t>(out, src);
  Put<uint32_t>(out, static_cast<uint32_t>(body));
  Put<uint32_t>(out, 0);
  for (const Message* m : messages) EncodeTo(*m, out);
}

Result<std::vector<std::span<const uint8_t>>> SplitBundle(std::span<const uint8_t> frame) {
  Result<FrameHeader> header = DecodeHeader(frame);
  if (!header.ok()) return header.status();
  if (header->type != MessageType::kBundle) return Status::Error("not a bundle");
  if (frame.size() != kHeaderBytes + header->body_length) {
    return Status::Error("bundle is " + std::to_string(frame.size()) + " bytes, header says " +
                         std::to_string(kHeaderBytes + header->body_length));
  }
  std::vector<std::span<const uint8_t>> frames;
  std::span<const uint8_t> rest = frame.subspan(kHeaderBytes);
  while (!rest.empty()) {
    // Built only for an error: a bundle that splits cleanly formats nothing.
    const auto where = [&] { return "bundled frame " + std::to_string(frames.size() + 1); };
    Result<FrameHeader> h = DecodeHeader(rest);
    if (!h.ok()) return h.status().WithContext(where());
    if (h->type == MessageType::kBundle)
      return Status::Error(where() + ": a bundle inside a bundle");
    if (h->src != header->src) {
      return Status::Error(where() + ": sender " + std::to_string(h->src) + ", the bundle's is " +
                           std::to_string(header->src));
    }
    const uint64_t size = kHeaderBytes + static_cast<uint64_t>(h->body_length);
    if (size > rest.size()) {
      return Status::Error(where() + ": " + std::to_string(size) + " bytes, " +
                           std::to_string(rest.size()) + " left in the bundle");
    }
    frames.push_back(rest.first(size));
    rest = rest.subspan(size);
  }
  if (frames.empty()) return Status::Error("empty bundle");
  return frames;
}

}  // namespace augur

#include "backends/tcp/control_messages.h"

#include <cstring>

namespace augur::tcp {

namespace {

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(v); }
  void U16(uint16_t v) { Le(v, 2); }
  void U32(uint32_t v) { Le(v, 4); }
  void Bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void Text(const std::string& s) {
    U16(static_cast<uint16_t>(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }
  std::vector<uint8_t> Take() { return std::move(out_); }

 private:
  void Le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t> out_;
};

class Reader {
 public:
  Reader(std::span<const uint8_t> b, const char* what) : b_(b), what_(what) {}
  bool U8(uint8_t* v) { return Le(v, 1); }
  bool U16(uint16_t* v) { return Le(v, 2); }
  bool U32(uint32_t* v) { return Le(v, 4); }
  bool Bytes(std::span<uint8_t> out) {
    if (b_.size() - at_ < out.size()) return false;
    std::memcpy(out.data(), b_.data() + at_, out.size());
    at_ += out.size();
    return true;
  }
  bool Text(std::string* s, size_t max_len) {
    uint16_t n = 0;
    if (!U16(&n) || n > max_len || b_.size() - at_ < n) return false;
    s->assign(reinterpret_cast<const char*>(b_.data() + at_), n);
    at_ += n;
    return true;
  }
  Status Fail(const char* field) const {
    return Status::Error(std::string(what_) + " message: bad or missing field '" + field + "'");
  }
  Status Finish() const {
    if (at_ == b_.size()) return Status::Ok();
    return Status::Error(std::string(what_) + " message: " + std::to_string(b_.size() - at_) +
                         " unexpected trailing bytes");
  }

 private:
  template <typename T>
  bool Le(T* v, int n) {
    if (b_.size() - at_ < static_cast<size_t>(n)) return false;
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= uint64_t{b_[at_ + i]} << (8 * i);
    at_ += n;
    *v = static_cast<T>(x);
    return true;
  }
  std::span<const uint8_t> b_;
  const char* what_;
  size_t at_ = 0;
};

constexpr size_t kMaxText = 255;

}  // namespace

std::vector<uint8_t> EncodeHello(const Hello& m) {
  Writer w;
  w.U16(m.transport_version);
  w.U8(m.core_wire_version);
  w.U32(m.rank);
  w.U32(m.nodes);
  w.Text(m.cluster_id);
  w.U8(m.wire_security);
  w.Bytes(m.nonce);
  return w.Take();
}

Result<Hello> DecodeHello(std::span<const uint8_t> payload) {
  Reader r(payload, "hello");
  Hello m;
  // The version comes first so a peer of another version is named as such.
  if (!r.U16(&m.transport_version)) return r.Fail("transport_version");
  if (m.transport_version != kTransportVersion) {
    return Status::Error("peer speaks transport protocol version " +
                         std::to_string(m.transport_version) + ", this build speaks " +
                         std::to_string(kTransportVersion));
  }
  if (!r.U8(&m.core_wire_version)) return r.Fail("core_wire_version");
  if (!r.U32(&m.rank)) return r.Fail("rank");
  if (!r.U32(&m.nodes)) return r.Fail("nodes");
  if (!r.Text(&m.cluster_id, kMaxText)) return r.Fail("cluster_id");
  if (!r.U8(&m.wire_security)) return r.Fail("wire_security");
  if (!r.Bytes(m.nonce)) return r.Fail("nonce");
  if (Status s = r.Finish(); !s.ok()) return s;
  return m;
}

std::vector<uint8_t> EncodeChallenge(const Challenge& m) {
  Writer w;
  w.U32(m.rank);
  w.Bytes(m.nonce);
  w.Bytes(m.mac);
  return w.Take();
}

Result<Challenge> DecodeChallenge(std::span<const uint8_t> payload) {
  Reader r(payload, "challenge");
  Challenge m;
  if (!r.U32(&m.rank)) return r.Fail("rank");
  if (!r.Bytes(m.nonce)) return r.Fail("nonce");
  if (!r.Bytes(m.mac)) return r.Fail("mac");
  if (Status s = r.Finish(); !s.ok()) return s;
  return m;
}

std::vector<uint8_t> EncodeProof(const Proof& m) {
  Writer w;
  w.Bytes(m.mac);
  return w.Take();
}

Result<Proof> DecodeProof(std::span<const uint8_t> payload) {
  Reader r(payload, "proof");
  Proof m;
  if (!r.Bytes(m.mac)) return r.Fail("mac");
  if (Status s = r.Finish(); !s.ok()) return s;
  return m;
}

std::vector<uint8_t> EncodeRegister(const Register& m) {
  Writer w;
  w.Text(m.listen.host);
  w.U16(m.listen.port);
  return w.Take();
}

Result<Register> DecodeRegister(std::span<const uint8_t> payload) {
  Reader r(payload, "register");
  Register m;
  if (!r.Text(&m.listen.host, kMaxText)) return r.Fail("host");
  if (!r.U16(&m.listen.port)) return r.Fail("port");
  if (Status s = r.Finish(); !s.ok()) return s;
  return m;
}

std::vector<uint8_t> EncodeRoster(const Roster& m) {
  Writer w;
  w.U32(static_cast<uint32_t>(m.ranks.size()));
  for (const PeerAddress& a : m.ranks) {
    w.Text(a.host);
    w.U16(a.port);
  }
  return w.Take();
}

Result<Roster> DecodeRoster(std::span<const uint8_t> payload, uint32_t max_ranks) {
  Reader r(payload, "roster");
  uint32_t n = 0;
  if (!r.U32(&n) || n > max_ranks) return r.Fail("count");
  Roster m;
  m.ranks.resize(n);
  for (PeerAddress& a : m.ranks) {
    if (!r.Text(&a.host, kMaxText)) return r.Fail("host");
    if (!r.U16(&a.port)) return r.Fail("port");
  }
  if (Status s = r.Finish(); !s.ok()) return s;
  return m;
}

}  // namespace augur::tcp

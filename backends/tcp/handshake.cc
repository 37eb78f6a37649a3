#include "backends/tcp/handshake.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "backends/tcp/crypto.h"
#include "core/base/check.h"
#include "core/codec/codec.h"

namespace augur::tcp {

namespace {

Mac ComputeMac(const HandshakeConfig& c, const char* role, uint32_t dialer_rank,
               uint32_t acceptor_rank, const Nonce& dialer_nonce, const Nonce& acceptor_nonce) {
  std::vector<uint8_t> msg(role, role + std::char_traits<char>::length(role));
  msg.push_back(0);
  msg.insert(msg.end(), c.cluster_id.begin(), c.cluster_id.end());
  msg.push_back(0);
  msg.push_back(static_cast<uint8_t>(c.wire_security));
  for (uint32_t v : {dialer_rank, acceptor_rank, c.nodes}) {
    for (int i = 0; i < 4; ++i) msg.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  msg.insert(msg.end(), dialer_nonce.begin(), dialer_nonce.end());
  msg.insert(msg.end(), acceptor_nonce.begin(), acceptor_nonce.end());
  return HmacSha256(c.secret, msg);
}

const char* kWrongSecret = "HMAC mismatch: the peer holds a different secret (check --secret-file)";

}  // namespace

Nonce RandomNonce() {
  Nonce n{};
  const Status s = RandomBytes(n);
  AUGUR_CHECK(s.ok(), "%s", s.message().c_str());
  return n;
}

Result<FrameKeys> DeriveConnectionKeys(const HandshakeConfig& c, uint32_t dialer_rank,
                                       uint32_t acceptor_rank, const Nonce& dialer_nonce,
                                       const Nonce& acceptor_nonce) {
  FrameKeyContext k;
  k.secret = c.secret;
  k.cluster_id = c.cluster_id;
  k.dialer_rank = dialer_rank;
  k.acceptor_rank = acceptor_rank;
  k.nodes = c.nodes;
  k.mode = c.wire_security;
  return DeriveFrameKeys(k, dialer_nonce, acceptor_nonce);
}

Hello MakeHello(const HandshakeConfig& c, const Nonce& nonce) {
  Hello h;
  h.core_wire_version = kWireVersion;
  h.rank = c.rank;
  h.nodes = c.nodes;
  h.cluster_id = c.cluster_id;
  h.wire_security = static_cast<uint8_t>(c.wire_security);
  h.nonce = nonce;
  return h;
}

Status CheckHello(const HandshakeConfig& c, const Hello& h) {
  if (h.core_wire_version != kWireVersion) {
    return Status::Error("peer speaks core wire version " + std::to_string(h.core_wire_version) +
                         ", this build speaks " + std::to_string(kWireVersion));
  }
  if (h.cluster_id != c.cluster_id) {
    return Status::Error("peer belongs to cluster '" + h.cluster_id + "', this is cluster '" +
                         c.cluster_id + "'");
  }
  if (h.nodes != c.nodes) {
    return Status::Error("peer was started with --nodes " + std::to_string(h.nodes) +
                         ", this node with " + std::to_string(c.nodes));
  }
  if (h.wire_security != static_cast<uint8_t>(c.wire_security)) {
    const char* theirs = h.wire_security <= static_cast<uint8_t>(WireSecurity::kEncrypt)
                             ? WireSecurityName(static_cast<WireSecurity>(h.wire_security))
                             : "unknown";
    return Status::Error(std::string("peer was started with --wire-security ") + theirs +
                         ", this node with " + WireSecurityName(c.wire_security));
  }
  if (h.rank >= c.nodes || h.rank == c.rank) {
    return Status::Error("peer claims rank " + std::to_string(h.rank) +
                         ", not a valid peer of rank " + std::to_string(c.rank) +
                         " in a cluster of " + std::to_string(c.nodes));
  }
  return Status::Ok();
}

Challenge MakeChallenge(const HandshakeConfig& c, const Hello& hello, const Nonce& nonce) {
  Challenge ch;
  ch.rank = c.rank;
  ch.nonce = nonce;
  ch.mac = ComputeMac(c, "acceptor", hello.rank, c.rank, hello.nonce, nonce);
  return ch;
}

Status CheckChallenge(const HandshakeConfig& c, const Nonce& my_nonce, const Challenge& ch,
                      int64_t expected_rank) {
  if (expected_rank >= 0 && ch.rank != expected_rank) {
    return Status::Error("expected rank " + std::to_string(expected_rank) + " but peer is rank " +
                         std::to_string(ch.rank));
  }
  const Mac want = ComputeMac(c, "acceptor", c.rank, ch.rank, my_nonce, ch.nonce);
  if (!ConstantTimeEqual(want, ch.mac)) return Status::Error(kWrongSecret);
  return Status::Ok();
}

Proof MakeProof(const HandshakeConfig& c, const Nonce& my_nonce, const Challenge& ch) {
  Proof p;
  p.mac = ComputeMac(c, "dialer", c.rank, ch.rank, my_nonce, ch.nonce);
  return p;
}

Status CheckProof(const HandshakeConfig& c, const Hello& hello, const Nonce& my_nonce,
                  const Proof& proof) {
  const Mac want = ComputeMac(c, "dialer", hello.rank, c.rank, hello.nonce, my_nonce);
  if (!ConstantTimeEqual(want, proof.mac)) return Status::Error(kWrongSecret);
  return Status::Ok();
}

Result<std::vector<uint8_t>> LoadSecret(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read secret file " + path);
  std::vector<uint8_t> s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!s.empty() &&
         (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.pop_back();
  if (s.size() < 16) {
    return Status::Error("secret file " + path + " holds " + std::to_string(s.size()) +
                         " bytes; use at least 16 (augur launch generates one)");
  }
  return s;
}

Status GenerateSecretFile(const std::string& path) {
  Nonce bytes{};
  if (Status s = RandomBytes(bytes); !s.ok()) return s.WithContext("secret file " + path);
  const std::string hex = ToHex(bytes) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    const int err = errno;
    return Status::Error("cannot create secret file " + path + ": " + std::strerror(err) +
                         (err == EEXIST ? " (remove it, or pass it with --secret-file)" : ""));
  }
  size_t done = 0;
  while (done < hex.size()) {
    const ssize_t n = ::write(fd, hex.data() + done, hex.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(path.c_str());
      return Status::Error("error writing secret file " + path + ": " + why);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) return Status::Error("error closing secret file " + path);
  return Status::Ok();
}

}  // namespace augur::tcp

#include "backends/tcp/handshake.h"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <random>

#include "backends/tcp/hmac_sha256.h"
#include "core/codec/codec.h"

namespace augur::tcp {

namespace {

Mac ComputeMac(const HandshakeConfig& c, const char* role, uint32_t dialer_rank,
               uint32_t acceptor_rank, const Nonce& dialer_nonce, const Nonce& acceptor_nonce) {
  std::vector<uint8_t> msg(role, role + std::char_traits<char>::length(role));
  msg.push_back(0);
  msg.insert(msg.end(), c.cluster_id.begin(), c.cluster_id.end());
  msg.push_back(0);
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
  std::random_device rd;  // /dev/urandom on Linux
  Nonce n;
  for (size_t i = 0; i < n.size(); i += 4) {
    const uint32_t v = rd();
    for (size_t j = 0; j < 4; ++j) n[i + j] = static_cast<uint8_t>(v >> (8 * j));
  }
  return n;
}

Hello MakeHello(const HandshakeConfig& c, const Nonce& nonce) {
  Hello h;
  h.core_wire_version = kWireVersion;
  h.rank = c.rank;
  h.nodes = c.nodes;
  h.cluster_id = c.cluster_id;
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
  const Nonce a = RandomNonce();
  const std::string hex = ToHex(a) + "\n";
  const mode_t old = umask(077);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  umask(old);
  if (!out) return Status::Error("cannot write secret file " + path);
  out << hex;
  if (!out) return Status::Error("error writing secret file " + path);
  chmod(path.c_str(), 0600);
  return Status::Ok();
}

}  // namespace augur::tcp

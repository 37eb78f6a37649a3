// Handshake: peers sharing the secret authenticate each other; a wrong
// secret, cluster id, size or version is refused with a clear reason.
#include "backends/tcp/handshake.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "backends/tcp/control_messages.h"

namespace augur::tcp {
namespace {

HandshakeConfig Config(uint32_t rank, const std::string& secret) {
  HandshakeConfig c;
  c.cluster_id = "test";
  c.secret.assign(secret.begin(), secret.end());
  c.rank = rank;
  c.nodes = 3;
  return c;
}

TEST_CASE("matching secrets authenticate both ways", "[tcp][handshake]") {
  const HandshakeConfig dialer = Config(2, "0123456789abcdef"),
                        acceptor = Config(0, "0123456789abcdef");
  const Nonce nd = RandomNonce(), na = RandomNonce();
  Result<Hello> hello = DecodeHello(EncodeHello(MakeHello(dialer, nd)));
  REQUIRE(hello.ok());
  REQUIRE(CheckHello(acceptor, *hello).ok());
  Result<Challenge> ch = DecodeChallenge(EncodeChallenge(MakeChallenge(acceptor, *hello, na)));
  REQUIRE(ch.ok());
  REQUIRE(CheckChallenge(dialer, nd, *ch, 0).ok());
  Result<Proof> proof = DecodeProof(EncodeProof(MakeProof(dialer, nd, *ch)));
  REQUIRE(proof.ok());
  CHECK(CheckProof(acceptor, *hello, na, *proof).ok());
  // A proof for other nonces (a replay) is refused.
  CHECK_FALSE(CheckProof(acceptor, *hello, RandomNonce(), *proof).ok());
}

TEST_CASE("a wrong secret is refused on both sides", "[tcp][handshake]") {
  const HandshakeConfig dialer = Config(1, "wrong-secret-0000"),
                        acceptor = Config(0, "0123456789abcdef");
  const Nonce nd = RandomNonce(), na = RandomNonce();
  const Hello hello = MakeHello(dialer, nd);
  REQUIRE(CheckHello(acceptor, hello).ok());  // the hello carries no secret
  const Challenge ch = MakeChallenge(acceptor, hello, na);
  const Status s = CheckChallenge(dialer, nd, ch, 0);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("--secret-file") != std::string::npos);
  CHECK_FALSE(CheckProof(acceptor, hello, na, MakeProof(dialer, nd, ch)).ok());
}

TEST_CASE("hello mismatches are named", "[tcp][handshake]") {
  const HandshakeConfig acceptor = Config(0, "0123456789abcdef");
  HandshakeConfig other = Config(1, "0123456789abcdef");
  other.cluster_id = "elsewhere";
  CHECK(CheckHello(acceptor, MakeHello(other, RandomNonce())).message().find("cluster") !=
        std::string::npos);
  other = Config(1, "0123456789abcdef");
  other.nodes = 4;
  CHECK(CheckHello(acceptor, MakeHello(other, RandomNonce())).message().find("--nodes") !=
        std::string::npos);
  other = Config(0, "0123456789abcdef");
  CHECK_FALSE(CheckHello(acceptor, MakeHello(other, RandomNonce())).ok());  // own rank
  std::vector<uint8_t> bytes = EncodeHello(MakeHello(Config(1, "0123456789abcdef"), RandomNonce()));
  bytes[0] = 99;  // another transport version
  Result<Hello> h = DecodeHello(bytes);
  REQUIRE_FALSE(h.ok());
  CHECK(h.status().message().find("version 99") != std::string::npos);
  CHECK_FALSE(DecodeHello(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 5)).ok());
}

TEST_CASE("roster and register round-trip", "[tcp][handshake]") {
  Roster r;
  r.ranks = {{"10.0.0.1", 29500}, {"10.0.0.2", 4000}};
  Result<Roster> back = DecodeRoster(EncodeRoster(r), 8);
  REQUIRE(back.ok());
  CHECK(back->ranks == r.ranks);
  CHECK_FALSE(DecodeRoster(EncodeRoster(r), 1).ok());
  Result<Register> reg = DecodeRegister(EncodeRegister(Register{{"h", 7}}));
  REQUIRE(reg.ok());
  CHECK(reg->listen == PeerAddress{"h", 7});
}

TEST_CASE("a secret file is created 0600 and never over an existing file", "[tcp][handshake]") {
  char dir[] = "/tmp/augur-secret-test-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string path = std::string(dir) + "/secret";
  REQUIRE(GenerateSecretFile(path).ok());
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  Result<std::vector<uint8_t>> first = LoadSecret(path);
  REQUIRE(first.ok());
  CHECK(first->size() == 64);  // 32 random bytes as hex
  const Status again = GenerateSecretFile(path);
  REQUIRE_FALSE(again.ok());
  CHECK(again.message().find("File exists") != std::string::npos);
  CHECK(*LoadSecret(path) == *first);  // untouched
  // Nor through a symbolic link planted where the secret goes.
  const std::string link = std::string(dir) + "/link";
  REQUIRE(::symlink((std::string(dir) + "/target").c_str(), link.c_str()) == 0);
  CHECK_FALSE(GenerateSecretFile(link).ok());
  CHECK_FALSE(std::filesystem::exists(std::string(dir) + "/target"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace augur::tcp

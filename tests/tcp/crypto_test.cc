// The libcrypto wrapper (backends/tcp/crypto.h) against the FIPS 180-4,
// RFC 4231 (HMAC-SHA256) and RFC 5869 (HKDF) vectors, plus the AES-256-GCM
// frame protection: a frame opens once, in order, and any change is refused.
#include "backends/tcp/crypto.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "backends/tcp/frame_protection.h"
#include "backends/tcp/transport_frame.h"

namespace augur::tcp {
namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST_CASE("sha256 known vectors", "[tcp][crypto]") {
  CHECK(ToHex(Sha256Of(Bytes(""))) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(ToHex(Sha256Of(Bytes("abc"))) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(ToHex(Sha256Of(Bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(ToHex(Sha256Of(std::vector<uint8_t>(1000000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("hmac-sha256 RFC 4231 vectors", "[tcp][crypto]") {
  // Test case 1.
  CHECK(ToHex(HmacSha256(std::vector<uint8_t>(20, 0x0b), Bytes("Hi There"))) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 2.
  CHECK(ToHex(HmacSha256(Bytes("Jefe"), Bytes("what do ya want for nothing?"))) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 3.
  CHECK(ToHex(HmacSha256(std::vector<uint8_t>(20, 0xaa), std::vector<uint8_t>(50, 0xdd))) ==
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  // Test case 6: a key longer than the block size is hashed first.
  CHECK(ToHex(HmacSha256(std::vector<uint8_t>(131, 0xaa),
                         Bytes("Test Using Larger Than Block-Size Key - Hash Key First"))) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("hkdf-sha256 RFC 5869 vector", "[tcp][crypto]") {
  // Test case 1.
  const std::vector<uint8_t> ikm(22, 0x0b);
  const std::vector<uint8_t> salt = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<uint8_t> info = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9};
  std::vector<uint8_t> okm(42);
  REQUIRE(HkdfSha256(ikm, salt, info, okm).ok());
  CHECK(ToHex(okm) ==
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
}

TEST_CASE("random bytes differ and constant-time compare", "[tcp][crypto]") {
  std::vector<uint8_t> a(32), b(32);
  REQUIRE(RandomBytes(a).ok());
  REQUIRE(RandomBytes(b).ok());
  CHECK_FALSE(ConstantTimeEqual(a, b));
  CHECK(a != std::vector<uint8_t>(32, 0));
  const std::vector<uint8_t> x = {1, 2, 3}, y = {1, 2, 3}, z = {1, 2, 4}, w = {1, 2};
  CHECK(ConstantTimeEqual(x, y));
  CHECK_FALSE(ConstantTimeEqual(x, z));
  CHECK_FALSE(ConstantTimeEqual(x, w));
}

struct Sealed {
  std::vector<uint8_t> header;
  std::vector<uint8_t> body;  // payload + tag
};

Sealed SealOne(FrameSealer& s, const std::vector<uint8_t>& payload) {
  Sealed out;
  const auto h = EncodeTransportHeader(FrameKind::kData,
                                       static_cast<uint32_t>(payload.size() + kFrameTagBytes));
  out.header.assign(h.begin(), h.end());
  out.body = payload;
  out.body.resize(payload.size() + kFrameTagBytes);
  const Status st =
      s.Seal(out.header, std::span<uint8_t>(out.body.data(), payload.size()),
             std::span<uint8_t, kFrameTagBytes>(out.body.data() + payload.size(), kFrameTagBytes));
  REQUIRE(st.ok());
  return out;
}

TEST_CASE("protected frames open once, in order, unchanged", "[tcp][crypto]") {
  const WireSecurity mode = GENERATE(WireSecurity::kAuth, WireSecurity::kEncrypt);
  INFO("mode " << WireSecurityName(mode));
  FrameKeyContext ctx;
  const std::vector<uint8_t> secret(32, 7);
  ctx.secret = secret;
  ctx.cluster_id = std::string("frame-test");
  ctx.nodes = 2;
  ctx.dialer_rank = 1;
  ctx.mode = mode;
  Nonce nd{}, na{};
  nd[0] = 1;
  na[0] = 2;
  Result<FrameKeys> keys = DeriveFrameKeys(ctx, nd, na);
  REQUIRE(keys.ok());
  CHECK(keys->dialer_to_acceptor != keys->acceptor_to_dialer);
  Nonce other = na;
  other[31] ^= 1;
  CHECK(DeriveFrameKeys(ctx, nd, other)->dialer_to_acceptor != keys->dialer_to_acceptor);

  auto sealer = FrameSealer::Create(mode, keys->dialer_to_acceptor);
  auto opener = FrameOpener::Create(mode, keys->dialer_to_acceptor);
  REQUIRE(sealer.ok());
  REQUIRE(opener.ok());
  const std::vector<uint8_t> payload = Bytes("pull request: keys 1 2 3");
  const Sealed f0 = SealOne(**sealer, payload);
  const Sealed f1 = SealOne(**sealer, payload);
  CHECK(f0.body != f1.body);  // a fresh nonce per frame
  if (mode == WireSecurity::kEncrypt) {
    CHECK(std::vector<uint8_t>(f0.body.begin(), f0.body.begin() + payload.size()) != payload);
  }
  Sealed copy = f0;
  REQUIRE((*opener)->Open(copy.header, copy.body).ok());
  CHECK(std::vector<uint8_t>(copy.body.begin(), copy.body.begin() + payload.size()) == payload);

  SECTION("a replay is refused") {
    copy = f0;
    CHECK_FALSE((*opener)->Open(copy.header, copy.body).ok());
  }
  SECTION("a modified payload is refused") {
    copy = f1;
    copy.body[3] ^= 0x40;
    CHECK_FALSE((*opener)->Open(copy.header, copy.body).ok());
  }
  SECTION("a modified header is refused") {
    copy = f1;
    copy.header[2] = static_cast<uint8_t>(FrameKind::kGoodbye);
    CHECK_FALSE((*opener)->Open(copy.header, copy.body).ok());
  }
  SECTION("a frame under the other direction's key is refused") {
    auto wrong = FrameSealer::Create(mode, keys->acceptor_to_dialer);
    REQUIRE(wrong.ok());
    (void)SealOne(**wrong, payload);  // advance it to sequence 1 too
    copy = SealOne(**wrong, payload);
    const Status s = (*opener)->Open(copy.header, copy.body);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message().find("failed authentication") != std::string::npos);
  }
  SECTION("the next frame in order opens") {
    copy = f1;
    CHECK((*opener)->Open(copy.header, copy.body).ok());
  }
}

}  // namespace
}  // namespace augur::tcp

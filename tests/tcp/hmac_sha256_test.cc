// SHA-256 and HMAC-SHA256 against FIPS 180-4 and RFC 4231 vectors.
#include "backends/tcp/hmac_sha256.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace augur::tcp {
namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST_CASE("sha256 known vectors", "[tcp][hmac]") {
  CHECK(ToHex(Sha256Of(Bytes(""))) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(ToHex(Sha256Of(Bytes("abc"))) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(ToHex(Sha256Of(Bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in uneven pieces to exercise the block buffer.
  Sha256 h;
  const std::vector<uint8_t> chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    const size_t n = std::min(left, chunk.size());
    h.Update(std::span<const uint8_t>(chunk.data(), n));
    left -= n;
  }
  CHECK(ToHex(h.Final()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("hmac-sha256 RFC 4231 vectors", "[tcp][hmac]") {
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

TEST_CASE("constant-time compare", "[tcp][hmac]") {
  const std::vector<uint8_t> a = {1, 2, 3}, b = {1, 2, 3}, c = {1, 2, 4}, d = {1, 2};
  CHECK(ConstantTimeEqual(a, b));
  CHECK_FALSE(ConstantTimeEqual(a, c));
  CHECK_FALSE(ConstantTimeEqual(a, d));
}

}  // namespace
}  // namespace augur::tcp

#include "backends/tcp/crypto.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <climits>
#include <memory>

#include "core/base/check.h"

namespace augur::tcp {

std::string OpensslError() {
  const unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (e == 0) return "no reason given";
  char text[256];
  ERR_error_string_n(e, text, sizeof(text));
  return text;
}

Digest Sha256Of(std::span<const uint8_t> data) {
  Digest d{};
  unsigned int n = 0;
  const int ok = EVP_Digest(data.data(), data.size(), d.data(), &n, EVP_sha256(), nullptr);
  AUGUR_CHECK(ok == 1 && n == d.size(), "EVP_Digest(SHA-256) failed: %s", OpensslError().c_str());
  return d;
}

Digest HmacSha256(std::span<const uint8_t> key, std::span<const uint8_t> message) {
  AUGUR_CHECK(key.size() <= INT_MAX, "HMAC key of %zu bytes", key.size());
  Digest d{};
  unsigned int n = 0;
  // A zero-length key still needs a valid pointer.
  static const uint8_t kEmpty = 0;
  const uint8_t* k = key.empty() ? &kEmpty : key.data();
  const uint8_t* out = HMAC(EVP_sha256(), k, static_cast<int>(key.size()), message.data(),
                            message.size(), d.data(), &n);
  AUGUR_CHECK(out != nullptr && n == d.size(), "HMAC-SHA256 failed: %s", OpensslError().c_str());
  return d;
}

Status HkdfSha256(std::span<const uint8_t> secret, std::span<const uint8_t> salt,
                  std::span<const uint8_t> info, std::span<uint8_t> out) {
  std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr),
                                                        &EVP_KDF_free);
  if (!kdf) return Status::Error("libcrypto has no HKDF: " + OpensslError());
  std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> ctx(EVP_KDF_CTX_new(kdf.get()),
                                                                &EVP_KDF_CTX_free);
  if (!ctx) return Status::Error("cannot create an HKDF context: " + OpensslError());
  char digest[] = "SHA256";
  // OSSL_PARAM takes non-const pointers; libcrypto only reads these buffers.
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<uint8_t*>(secret.data()),
                                        secret.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<uint8_t*>(salt.data()),
                                        salt.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<uint8_t*>(info.data()),
                                        info.size()),
      OSSL_PARAM_construct_end()};
  if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1) {
    return Status::Error("HKDF-SHA256 failed: " + OpensslError());
  }
  return Status::Ok();
}

Status RandomBytes(std::span<uint8_t> out) {
  AUGUR_CHECK(out.size() <= INT_MAX, "%zu random bytes", out.size());
  if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) {
    return Status::Error("the system random generator failed (RAND_bytes): " + OpensslError());
  }
  return Status::Ok();
}

bool ConstantTimeEqual(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string ToHex(std::span<const uint8_t> bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

}  // namespace augur::tcp

// augur-bench-crypto: what --wire-security costs per frame, next to its
// references measured in the same run.
//
//   BM_Seal/<mode>: FrameSealer::Seal of one 105 KB frame (a 256-key pull
//     response of dim 100), mode 1 = auth (GMAC), 2 = encrypt (AES-256-GCM).
//   BM_Open/<mode>: FrameOpener::Open of the same frame.
//   BM_Poly1305: ChaCha20-Poly1305 with the frame as additional data only,
//     the MAC `auth` could use instead (frame_protection.cc says why not).
//   BM_Memcpy: copying the frame, the floor for touching its bytes once.
// All report bytes_per_second (frame bytes).
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <cstring>
#include <vector>

#include "backends/tcp/frame_protection.h"
#include "core/base/check.h"

namespace augur::tcp {
namespace {

constexpr size_t kFrameBytes = 105000;
const uint8_t kHeader[8] = {1, 0, 0, 0, 0, 0, 0, 0};

FrameKey TestKey() {
  FrameKey k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(i * 7 + 1);
  return k;
}

void BM_Seal(benchmark::State& state) {
  const auto mode = static_cast<WireSecurity>(state.range(0));
  auto sealer = FrameSealer::Create(mode, TestKey());
  AUGUR_CHECK(sealer.ok(), "sealer");
  std::vector<uint8_t> payload(kFrameBytes, 7);
  std::array<uint8_t, kFrameTagBytes> tag{};
  for (auto _ : state) {
    AUGUR_CHECK((*sealer)->Seal(kHeader, payload, tag).ok(), "seal");
    benchmark::DoNotOptimize(tag.data());
  }
  state.SetBytesProcessed(state.iterations() * kFrameBytes);
  state.SetLabel(WireSecurityName(mode));
}

void BM_Open(benchmark::State& state) {
  const auto mode = static_cast<WireSecurity>(state.range(0));
  auto sealer = FrameSealer::Create(mode, TestKey());
  auto opener = FrameOpener::Create(mode, TestKey());
  AUGUR_CHECK(sealer.ok() && opener.ok(), "cipher");
  // Seal a run of frames ahead (each nonce is used once), then open them in
  // order; sealing is outside the timed region.
  constexpr size_t kAhead = 64;
  std::vector<std::vector<uint8_t>> frames(kAhead,
                                           std::vector<uint8_t>(kFrameBytes + kFrameTagBytes, 7));
  std::vector<uint8_t> scratch;
  size_t next = kAhead;
  for (auto _ : state) {
    if (next == kAhead) {
      state.PauseTiming();
      for (auto& f : frames) {
        std::fill(f.begin(), f.end() - kFrameTagBytes, 7);
        const std::span<uint8_t> payload(f.data(), kFrameBytes);
        const std::span<uint8_t, kFrameTagBytes> tag(f.data() + kFrameBytes, kFrameTagBytes);
        AUGUR_CHECK((*sealer)->Seal(kHeader, payload, tag).ok(), "seal");
      }
      next = 0;
      state.ResumeTiming();
    }
    AUGUR_CHECK((*opener)->Open(kHeader, frames[next++]).ok(), "open");
  }
  state.SetBytesProcessed(state.iterations() * kFrameBytes);
  state.SetLabel(WireSecurityName(mode));
}

void BM_Poly1305(benchmark::State& state) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const FrameKey key = TestKey();
  AUGUR_CHECK(EVP_EncryptInit_ex(ctx, EVP_chacha20_poly1305(), nullptr, key.data(), nullptr) == 1,
              "init");
  std::vector<uint8_t> payload(kFrameBytes, 7);
  uint8_t nonce[12] = {};
  uint8_t tag[kFrameTagBytes];
  uint64_t sequence = 0;
  for (auto _ : state) {
    std::memcpy(nonce + 4, &sequence, sizeof(sequence));
    ++sequence;
    int n = 0;
    EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce);
    EVP_EncryptUpdate(ctx, nullptr, &n, kHeader, sizeof(kHeader));
    EVP_EncryptUpdate(ctx, nullptr, &n, payload.data(), static_cast<int>(payload.size()));
    EVP_EncryptFinal_ex(ctx, tag, &n);
    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, kFrameTagBytes, tag);
    benchmark::DoNotOptimize(tag);
  }
  EVP_CIPHER_CTX_free(ctx);
  state.SetBytesProcessed(state.iterations() * kFrameBytes);
}

void BM_Memcpy(benchmark::State& state) {
  std::vector<uint8_t> from(kFrameBytes, 7), to(kFrameBytes);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), kFrameBytes);
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kFrameBytes);
}

BENCHMARK(BM_Memcpy);
BENCHMARK(BM_Seal)
    ->Arg(static_cast<int>(WireSecurity::kAuth))
    ->Arg(static_cast<int>(WireSecurity::kEncrypt));
BENCHMARK(BM_Open)
    ->Arg(static_cast<int>(WireSecurity::kAuth))
    ->Arg(static_cast<int>(WireSecurity::kEncrypt));
BENCHMARK(BM_Poly1305);

}  // namespace
}  // namespace augur::tcp

BENCHMARK_MAIN();

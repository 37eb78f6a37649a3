// Deterministic random numbers: SplitMix64 seeding and xoshiro256** streams.
//
// One run seed; every node, worker and component derives its own stream with
// DeriveSeed(seed, a, b), so runs are reproducible bit for bit on every
// runtime. Not thread-safe: one Rng per user.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace augur {

inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A stateless 64-bit mixer (bijective): used to scatter keys and derive seeds.
inline uint64_t Mix64(uint64_t x) {
  uint64_t s = x;
  return SplitMix64(s);
}

inline uint64_t DeriveSeed(uint64_t seed, uint64_t a, uint64_t b = 0) {
  return Mix64(Mix64(seed ^ Mix64(a + 0x632BE59BD9B4E019ull)) ^ (b * 0x9E3779B97F4A7C15ull));
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (auto& word : s_) word = SplitMix64(sm);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<__uint128_t>(Next()) * n) >> 64);
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Seeded Fisher-Yates shuffle (the same order on every platform).
template <typename T>
void Shuffle(std::vector<T>* v, Rng& rng) {
  for (std::size_t i = v->size(); i > 1; --i) std::swap((*v)[i - 1], (*v)[rng.Below(i)]);
}

}  // namespace augur

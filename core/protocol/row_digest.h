// RowDigest: a 64-bit fingerprint of a row's bits (value + optimizer state).
//
// The owner of a replicated key remembers, per holder, the digest of the row
// it last sent; a sync round answers with the row only when the digest
// changed, so replicas whose main copy is unchanged cost no row transfer.
// Equal rows give equal digests; different rows collide with probability
// about 2^-64. Never 0, so 0 can mean "no row sent yet".
#pragma once

#include <cstdint>
#include <cstring>

#include "core/base/rng.h"

namespace augur {

inline uint64_t RowDigest(const float* row, size_t floats) {
  uint64_t h = 0x6A09E667F3BCC909ull ^ floats;
  size_t i = 0;
  for (; i + 2 <= floats; i += 2) {
    uint64_t w;
    std::memcpy(&w, row + i, sizeof(w));
    h = Mix64(h ^ w);
  }
  if (i < floats) {
    uint32_t w;
    std::memcpy(&w, row + i, sizeof(w));
    h = Mix64(h ^ w);
  }
  return h | 1;
}

}  // namespace augur

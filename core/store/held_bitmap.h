// HeldBitmap: which keys of the value layout's dense ranges a store holds,
// one bit per key, readable without the store's locks.
//
// Why: local sampling (core/sampling) draws from the application's
// distribution and rejects the keys not held on the node, about two draws
// per returned key. Asking the store costs a stripe lock and a hash probe
// per draw; a bit costs one load from a bitmap of a few kilobytes.
//
// The workloads' keys are dense ranges of the ValueLayout (entities,
// relations, words, matrix rows and columns), so each range of at most
// kMaxTrackedKeys keys gets a bitmap; a key outside every tracked range is
// kUnknown and the caller asks the store.
// Contract: the store sets a key's bit when it inserts the key's entry and
// clears it when it erases it, under the key's stripe lock, so a bit equals
// "the store holds an entry (main copy or replica) for this key" at every
// moment the stripe is unlocked. A reader without the lock sees a recent
// state: a key may be relocated right after, exactly as after a locked
// lookup that returned.
// Threading: Set from any thread (atomic read-modify-write of the bit's
// word, which keys of other stripes share); Get from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/dense_ranges.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"

namespace augur {

class HeldBitmap {
 public:
  enum class Held : uint8_t { kNo, kYes, kUnknown };
  // Ranges longer than this are not tracked (16 MiB of bits).
  static constexpr uint64_t kMaxTrackedKeys = uint64_t{1} << 27;

  explicit HeldBitmap(const ValueLayout& layout) : ranges_(layout, kMaxTrackedKeys) {
    for (size_t r = 0; r < ranges_.size(); ++r)
      bits_.push_back(std::make_unique<std::atomic<uint64_t>[]>((ranges_.keys(r) + 63) / 64));
  }

  Held Get(Key key) const {
    const Bit b = Locate(key);
    if (b.word == nullptr) return Held::kUnknown;
    return b.word->load(std::memory_order_relaxed) & b.mask ? Held::kYes : Held::kNo;
  }

  // REQUIRES: the caller holds the key's stripe lock. No-op for an untracked key.
  void Set(Key key, bool held) {
    const Bit b = Locate(key);
    if (b.word == nullptr) return;
    if (held)
      b.word->fetch_or(b.mask, std::memory_order_relaxed);
    else
      b.word->fetch_and(~b.mask, std::memory_order_relaxed);
  }

 private:
  struct Bit {
    std::atomic<uint64_t>* word;  // null: the key is in no tracked range
    uint64_t mask;
  };
  Bit Locate(Key key) const {
    const DenseRanges::Place p = ranges_.Locate(key);
    if (p.range == DenseRanges::kNone) return Bit{nullptr, 0};
    return Bit{&bits_[p.range][p.offset / 64], uint64_t{1} << (p.offset % 64)};
  }
  DenseRanges ranges_;
  // Per range, one bit per key, zero-initialised: nothing held.
  std::vector<std::unique_ptr<std::atomic<uint64_t>[]>> bits_;
};

}  // namespace augur

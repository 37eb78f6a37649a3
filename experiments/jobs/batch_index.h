// BatchIndex: the dense slot of each distinct key of one mini-batch.
//
// Insert(key) gives a key its slot (0, 1, 2, ... in first-seen order) or
// returns the one it has; Find(key) looks it up. Clear() forgets every key in
// O(1): buckets carry the generation they were written in, so a batch never
// pays for clearing the table or for sorting its keys. Open addressing with
// linear probing at most half full, one 16-byte bucket per probe.
// Not thread-safe: one per worker.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

class BatchIndex {
 public:
  BatchIndex() { Resize(64); }

  void Clear() {
    size_ = 0;
    if (++generation_ == 0) {  // wrapped: old stamps could look current
      for (Bucket& b : buckets_) b.generation = 0;
      generation_ = 1;
    }
  }
  size_t size() const { return size_; }

  // The key's slot, and whether it was new.
  std::pair<uint32_t, bool> Insert(Key key) {
    if ((size_ + 1) * 2 > buckets_.size()) Grow();
    for (size_t i = Mix64(key) & mask_;; i = (i + 1) & mask_) {
      Bucket& b = buckets_[i];
      if (b.generation != generation_) {
        b = Bucket{key, static_cast<uint32_t>(size_), generation_};
        return {static_cast<uint32_t>(size_++), true};
      }
      if (b.key == key) return {b.slot, false};
    }
  }
  std::optional<uint32_t> Find(Key key) const {
    for (size_t i = Mix64(key) & mask_;; i = (i + 1) & mask_) {
      const Bucket& b = buckets_[i];
      if (b.generation != generation_) return std::nullopt;
      if (b.key == key) return b.slot;
    }
  }

 private:
  struct Bucket {
    Key key = 0;
    uint32_t slot = 0;
    uint32_t generation = 0;  // 0: never written
  };
  void Resize(size_t capacity) {
    buckets_.assign(capacity, Bucket{});
    mask_ = capacity - 1;
    generation_ = 1;
  }
  void Grow() {
    std::vector<Bucket> old = std::move(buckets_);
    const uint32_t live = generation_;
    Resize(old.size() * 2);
    for (const Bucket& b : old) {
      if (b.generation != live) continue;
      size_t i = Mix64(b.key) & mask_;
      while (buckets_[i].generation == generation_) i = (i + 1) & mask_;
      buckets_[i] = Bucket{b.key, b.slot, generation_};
    }
  }

  std::vector<Bucket> buckets_;
  size_t mask_ = 0;
  size_t size_ = 0;
  uint32_t generation_ = 1;
};

}  // namespace augur

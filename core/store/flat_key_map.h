// FlatKeyMap<V>: open-addressing hash map from any uint64 Key to a small V.
//
// Linear probing over one array of buckets (key, occupancy, value together,
// so a lookup touches one cache line), an explicit occupancy flag (every
// 64-bit value is a valid key, so there is no sentinel key) and
// backward-shift deletion (no tombstones, so lookups stay short under churn
// from relocation). It grows at half full, so probe runs stay short; a key
// costs 2-4 buckets (64-128 bytes with the store's 32-byte buckets; the
// measured trade: docs/measurements/2026-12-03-evening-efficiency.md).
// Prefetch() lets batch callers overlap cache misses.
// Not thread-safe: the owner (a store stripe) serialises access.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

template <typename V>
class FlatKeyMap {
 public:
  FlatKeyMap() { Rehash(16); }

  // The *Hashed variants take Mix64(key), precomputed by batch callers.
  // An empty map answers without touching its buckets (maps that are
  // mostly empty, such as a node's deferred owner updates, are probed on
  // every request).
  V* Find(Key key) { return size_ == 0 ? nullptr : FindHashed(key, Mix64(key)); }
  V* FindHashed(Key key, uint64_t hash) {
    size_t i = hash & mask_;
    while (buckets_[i].used) {
      if (buckets_[i].key == key) return &buckets_[i].value;
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  void PrefetchHashed(uint64_t hash) const { __builtin_prefetch(&buckets_[hash & mask_]); }
  const V* Find(Key key) const { return const_cast<FlatKeyMap*>(this)->Find(key); }

  // Inserts `value` if `key` is absent. Returns the stored value and whether it was inserted.
  std::pair<V*, bool> Insert(Key key, const V& value) {
    return InsertHashed(key, Mix64(key), value);
  }
  // A key already present never rehashes (its value pointer stays valid).
  std::pair<V*, bool> InsertHashed(Key key, uint64_t hash, const V& value) {
    size_t i = hash & mask_;
    while (buckets_[i].used) {
      if (buckets_[i].key == key) return {&buckets_[i].value, false};
      i = (i + 1) & mask_;
    }
    if ((size_ + 1) * 2 > capacity()) {
      Rehash(capacity() * 2);
      i = hash & mask_;
      while (buckets_[i].used) i = (i + 1) & mask_;
    }
    buckets_[i] = Bucket{key, value, true};
    ++size_;
    return {&buckets_[i].value, true};
  }

  // Inserts `value`, or overwrites the value stored for `key`.
  void Assign(Key key, const V& value) {
    auto [stored, inserted] = Insert(key, value);
    if (!inserted) *stored = value;
  }

  bool Erase(Key key) {
    if (size_ == 0) return false;  // as Find: an empty map's buckets stay untouched
    size_t i = Home(key);
    while (buckets_[i].used && buckets_[i].key != key) i = (i + 1) & mask_;
    if (!buckets_[i].used) return false;
    // Backward-shift: pull later entries of the probe run into the hole.
    size_t hole = i;
    size_t j = (i + 1) & mask_;
    while (buckets_[j].used) {
      size_t home = Home(buckets_[j].key);
      // Entry j may move to `hole` iff its home is not in (hole, j] cyclically.
      bool movable = (hole <= j) ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        buckets_[hole] = buckets_[j];
        hole = j;
      }
      j = (j + 1) & mask_;
    }
    buckets_[hole].used = false;
    --size_;
    return true;
  }

  // Removes every entry; keeps the capacity (O(capacity)).
  void Clear() {
    for (Bucket& b : buckets_) b.used = false;
    size_ = 0;
  }

  size_t size() const { return size_; }
  size_t capacity() const { return buckets_.size(); }
  // Where the bucket `hash` probes first lives: base + (hash & mask) * stride.
  // Valid until the next insert (which may rehash); for prefetch hints.
  const char* bucket_base() const { return reinterpret_cast<const char*>(buckets_.data()); }
  size_t bucket_mask() const { return mask_; }
  static size_t bucket_stride() { return sizeof(Bucket); }

  template <typename F>
  void ForEach(F&& f) {
    for (Bucket& b : buckets_)
      if (b.used) f(b.key, b.value);
  }

 private:
  size_t Home(Key key) const { return static_cast<size_t>(Mix64(key)) & mask_; }

  struct Bucket {
    Key key = 0;
    V value{};
    bool used = false;
  };

  void Rehash(size_t new_capacity) {
    std::vector<Bucket> old = std::move(buckets_);
    buckets_.assign(new_capacity, Bucket{});
    mask_ = new_capacity - 1;
    size_ = 0;
    for (const Bucket& b : old)
      if (b.used) Insert(b.key, b.value);
  }

  std::vector<Bucket> buckets_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace augur

// FlatKeyMap<V>: open-addressing hash map from any uint64 Key to a small V.
//
// Linear probing with a separate occupancy array (every 64-bit value is a
// valid key, so there is no sentinel key) and backward-shift deletion (no
// tombstones, so lookups stay short under churn from relocation).
// Not thread-safe: the owner (a store stripe) serialises access.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/rng.h"
#include "core/base/types.h"

namespace augur {

template <typename V>
class FlatKeyMap {
 public:
  FlatKeyMap() { Rehash(16); }

  V* Find(Key key) {
    size_t i = Home(key);
    while (used_[i]) {
      if (keys_[i] == key) return &values_[i];
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  const V* Find(Key key) const { return const_cast<FlatKeyMap*>(this)->Find(key); }

  // Inserts `value` if `key` is absent. Returns the stored value and whether it was inserted.
  std::pair<V*, bool> Insert(Key key, const V& value) {
    if ((size_ + 1) * 4 > capacity() * 3) Rehash(capacity() * 2);
    size_t i = Home(key);
    while (used_[i]) {
      if (keys_[i] == key) return {&values_[i], false};
      i = (i + 1) & mask_;
    }
    used_[i] = 1;
    keys_[i] = key;
    values_[i] = value;
    ++size_;
    return {&values_[i], true};
  }

  bool Erase(Key key) {
    size_t i = Home(key);
    while (used_[i] && keys_[i] != key) i = (i + 1) & mask_;
    if (!used_[i]) return false;
    // Backward-shift: pull later entries of the probe run into the hole.
    size_t hole = i;
    size_t j = (i + 1) & mask_;
    while (used_[j]) {
      size_t home = Home(keys_[j]);
      // Entry j may move to `hole` iff its home is not in (hole, j] cyclically.
      bool movable = (hole <= j) ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys_[hole] = keys_[j];
        values_[hole] = values_[j];
        hole = j;
      }
      j = (j + 1) & mask_;
    }
    used_[hole] = 0;
    --size_;
    return true;
  }

  size_t size() const { return size_; }
  size_t capacity() const { return keys_.size(); }

  template <typename F>
  void ForEach(F&& f) {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (used_[i]) f(keys_[i], values_[i]);
  }

 private:
  size_t Home(Key key) const { return static_cast<size_t>(Mix64(key)) & mask_; }

  void Rehash(size_t new_capacity) {
    std::vector<Key> old_keys = std::move(keys_);
    std::vector<V> old_values = std::move(values_);
    std::vector<uint8_t> old_used = std::move(used_);
    keys_.assign(new_capacity, 0);
    values_.assign(new_capacity, V{});
    used_.assign(new_capacity, 0);
    mask_ = new_capacity - 1;
    size_ = 0;
    for (size_t i = 0; i < old_keys.size(); ++i)
      if (old_used[i]) Insert(old_keys[i], old_values[i]);
  }

  std::vector<Key> keys_;
  std::vector<V> values_;
  std::vector<uint8_t> used_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace augur

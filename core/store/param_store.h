// ParamStore: the node-local store of parameter values (main copies and replicas).
//
// Owned by one node; shared by that node's workers (hot path) and its protocol
// engine. Threading: every method is safe to call concurrently; each key maps
// to one of `stripes` stripes guarded by a SpinLock held only for the copy or
// add of one row, never across a runtime call.
//
// A key is *present* when this node holds its main copy or a replica. Whether a
// node may create a missing key on first touch (its initial value coming from
// the Initializer, deterministic per key) is the caller's decision.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/flat_key_map.h"
#include "core/store/spin_lock.h"

namespace augur {

enum class CopyKind : uint8_t { kMain = 0, kReplica = 1 };

class ParamStore {
 public:
  // Fills the initial value of a newly created key; must be deterministic per key.
  using Initializer = std::function<void(Key key, std::span<float> value)>;

  // A view of one entry, valid only inside the callback that received it.
  struct Entry {
    float* value;
    float* delta;  // replicas only: updates since the last sync; nullptr for main copies
    uint32_t length;
    CopyKind kind;
  };

  ParamStore(ValueLayout layout, Initializer init, uint32_t stripes = 64);

  const ValueLayout& layout() const { return layout_; }

  // Hot path. Each returns false (and does nothing) when the key is absent,
  // unless `create` is set, in which case a main copy is created first.
  bool Pull(Key key, float* out, bool create);
  bool Push(Key key, const float* update, bool create);  // value += update (and delta)
  bool Set(Key key, const float* value, bool create);    // replicas: delta keeps the change

  // Runs f(Entry&) under the key's stripe lock. f must not call into the runtime.
  template <typename F>
  bool With(Key key, bool create, F&& f) {
    Stripe& s = StripeOf(key);
    LockGuard<SpinLock> guard(s.lock);
    Slot* slot = create ? FindOrCreate(s, key) : s.index.Find(key);
    if (slot == nullptr) return false;
    Entry e = View(s, *slot);
    f(e);
    return true;
  }

  // Inserts or overwrites an entry with the given value (relocation hand-over,
  // replica creation, restore). A replica starts with a zero delta.
  void Install(Key key, CopyKind kind, const float* value);
  // Removes the entry; copies its value into `value_out` (if not null). False if absent.
  bool Remove(Key key, float* value_out);
  bool Contains(Key key);
  size_t Size();
  // Calls f(key, Entry&) for every entry, one stripe locked at a time.
  void ForEach(const std::function<void(Key, Entry&)>& f);

 private:
  struct Slot {
    uint64_t offset = 0;  // into the stripe arena
    uint32_t length = 0;
    CopyKind kind = CopyKind::kMain;
  };
  struct Stripe {
    SpinLock lock;
    FlatKeyMap<Slot> index;
    std::vector<float> arena;
    std::unordered_map<uint32_t, std::vector<uint64_t>> free_by_size;
  };

  Stripe& StripeOf(Key key) { return stripes_[(Mix64(key) >> 40) & stripe_mask_]; }
  Slot* FindOrCreate(Stripe& s, Key key);
  Slot* Allocate(Stripe& s, Key key, CopyKind kind);
  void Free(Stripe& s, const Slot& slot);
  static Entry View(Stripe& s, const Slot& slot) {
    float* base = s.arena.data() + slot.offset;
    return Entry{base, slot.kind == CopyKind::kReplica ? base + slot.length : nullptr, slot.length,
                 slot.kind};
  }

  ValueLayout layout_;
  Initializer init_;
  std::unique_ptr<Stripe[]> stripes_;
  uint64_t stripe_mask_;
};

}  // namespace augur

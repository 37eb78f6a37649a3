// ParamStore: the node-local store of parameter values (main copies and replicas).
//
// Owned by one node; shared by that node's workers (hot path) and its protocol
// engine. Threading: every method is safe to call concurrently; each key maps
// to one of `stripes` stripes guarded by a SpinLock held only for the copy or
// add of one row (WithPair: the step on two rows, their two locks taken in
// stripe order), never across a runtime call.
//
// Each entry holds the value, the optimizer state beside it (optimizer.h) and,
// for replicas, the delta not yet synchronised. A "row" (Install/Remove/
// ReadRow) is value followed by state: what moves on relocation. A replica's
// delta has a row's length too (optimizer.h, AccumulateDelta): the sum of
// the updates pushed to it since its last sync and, with AdaGrad, the sum
// of their squares; its main copy applies it with ApplyDeltaTo.
//
// A key is *present* when this node holds its main copy or a replica. Whether a
// node may create a missing key on first touch (its initial value coming from
// the Initializer, deterministic per key) is the caller's decision.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/check.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/flat_key_map.h"
#include "core/store/held_bitmap.h"
#include "core/store/optimizer.h"
#include "core/store/row_arena.h"
#include "core/store/spin_lock.h"

namespace augur {

enum class CopyKind : uint8_t { kMain = 0, kReplica = 1 };

class ParamStore {
 public:
  // Fills the initial value of a newly created key; must be deterministic per key.
  using Initializer = std::function<void(Key key, std::span<float> value)>;

  // Where an entry lives (internal; public only so BatchScratch can hold pointers).
  struct Slot {                // 16 bytes: a bucket (key + slot + flag) stays within 32 bytes
    RowArena::Ref offset = 0;  // the row in the stripe's arena
    uint32_t length = 0;
    uint16_t version = 0;
    CopyKind kind = CopyKind::kMain;
  };

  // A view of one entry, valid only inside the callback that received it.
  struct Entry {
    float* value;
    float* state;  // optimizer state (StateRows() * length floats), or nullptr
    float* delta;  // replicas only: updates since the last sync (AccumulateDelta),
                   // DeltaLength floats; nullptr for main copies
    uint32_t length;
    CopyKind kind;
    uint16_t* version;  // per-entry counter for the protocol (e.g. replica sync rounds; wraps)
  };

  ParamStore(ValueLayout layout, Initializer init, OptimizerConfig optimizer = {},
             uint32_t stripes = 16);

  // Every stripe lock's SpinYield (spin_lock.h). Call before the store is
  // shared between threads.
  void SetSpinYield(SpinYield yield);

  const ValueLayout& layout() const { return layout_; }
  const OptimizerConfig& optimizer() const { return optimizer_; }
  // Floats in a row (value + optimizer state) of this key.
  uint32_t RowLength(Key key) const { return layout_.Length(key) * (1 + optimizer_.StateRows()); }
  // Floats in a delta of this key (AccumulateDelta): a row's. A replica's
  // pending delta, and what a push carries per key.
  uint32_t DeltaLength(Key key) const { return RowLength(key); }

  // Hot path. Each returns false (and does nothing) when the key is absent,
  // unless `create` is set, in which case a main copy is created first.
  bool Pull(Key key, float* out, bool create);
  // Applies a delta (DeltaLength floats, ApplyPush; kSum: value += update);
  // a replica also adds it to its pending delta.
  bool Push(Key key, const float* delta, bool create);
  // Overwrites the value only (optimizer state and replica delta stay).
  bool Set(Key key, const float* value, bool create);

  // Batch hot path: keys[i]'s value goes to / comes from buf + offsets[i]
  // (a push's: its delta, DeltaLength floats).
  // Keys are grouped by stripe so each stripe is locked once per batch and
  // the lookups and row copies of a group overlap their cache misses.
  // Pull and Push serve present keys (main copies and replicas), Set only
  // main copies; the indices of the keys not served are left in
  // scratch->missing for the protocol's slow path. With `create`, an absent
  // key is created as a main copy instead (the caller knows it is homed
  // here and has never left: a one-node cluster), so nothing is missing.
  // `scratch` is caller-owned memory reused across calls (one per worker).
  struct BatchScratch {
    std::vector<uint32_t> order;
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> stripe_start;
    std::vector<Slot> slots;
    std::vector<uint8_t> found;
    std::vector<uint32_t> missing;
    std::vector<uint32_t> busy_stripes;  // held by another thread at the first try
  };
  void PullBatch(std::span<const Key> keys, std::span<const uint32_t> offsets, float* out,
                 BatchScratch* scratch, bool create = false);
  void PushBatch(std::span<const Key> keys, std::span<const uint32_t> offsets, const float* in,
                 BatchScratch* scratch, bool create = false);
  void SetBatch(std::span<const Key> keys, std::span<const uint32_t> offsets, const float* in,
                BatchScratch* scratch, bool create = false);
  // Which keys are held here: afterwards scratch->found[i] is 1 if keys[i]
  // is (with `main_only`, as a main copy), else 0. One lock per stripe and no
  // row touched, for many lookups at once.
  void HeldBatch(std::span<const Key> keys, bool main_only, BatchScratch* scratch);
  // One optimizer step per key, in place, for entries resolved
  // (ResolveBatch) when moves() was `since`: keys[i]'s value and state take
  // updates[i] (ApplyUpdate, Length floats), and a replica adds it to its
  // delta (AccumulateDelta), which is what a push of that one update does
  // (ApplyPush of UpdateToDelta) without building its delta. While no entry
  // has been removed or replaced since, the step goes to entries[i] under
  // the key's stripe lock with no lookup; after a removal the key is looked
  // up, and an absent key is left in scratch->missing. One lock per key.
  void UpdateResolved(std::span<const Key> keys, std::span<const Entry> entries, uint64_t since,
                      std::span<const float* const> updates, BatchScratch* scratch);
  // As PullBatch and PushBatch, but only main copies serve: a replica counts
  // as missing (a node answering another node's requests).
  void PullMainBatch(std::span<const Key> keys, std::span<const uint32_t> offsets, float* out,
                     BatchScratch* scratch);
  void PushMainBatch(std::span<const Key> keys, std::span<const uint32_t> offsets, const float* in,
                     BatchScratch* scratch);

  // Direct access (zero-copy): entries[i] views keys[i]'s entry (main copy
  // or replica) with the batch calls' locking (one lock per stripe, held
  // only to look up). Absent keys are created as main copies with `create`,
  // else listed in scratch->missing (their entries are left untouched).
  // The views' pointers stay valid until the entry is removed or replaced
  // (Remove, Install, TakeReplica, InstallMain): rows never move in memory
  // (RowArena). Reads and writes through them take no lock, so this is for
  // a caller that knows nobody removes these entries meanwhile and accepts
  // unsynchronised concurrent updates of a row (Hogwild); Entry::version is
  // null. REQUIRES: entries has keys.size() elements.
  void ResolveBatch(std::span<const Key> keys, Entry* entries, BatchScratch* scratch, bool create);
  // Counts the removals and replacements of entries (what invalidates a
  // resolved view): a caller caching views drops them when it changes.
  uint64_t moves() const { return moves_.load(std::memory_order_acquire); }

  // What a push does to an entry: `delta` (DeltaLength floats: the summed
  // updates and, with AdaGrad, their summed squares; optimizer.h,
  // AccumulateDelta) applied as one optimizer step on the value and state,
  // and for a replica added to its delta. REQUIRES: the entry's stripe lock,
  // or a caller with direct access (ResolveBatch).
  void ApplyPush(const Entry& e, const float* delta) const {
    augur::ApplyDelta(optimizer_, e.value, e.state, delta, e.length);
    if (e.delta != nullptr) AddDelta(optimizer_, delta, e.length, e.delta);
  }
  // Applies a replica's delta (DeltaLength floats) to the entry, as one step.
  // REQUIRES: the entry's stripe lock.
  void ApplyDelta(const Entry& e, const float* delta) const {
    augur::ApplyDelta(optimizer_, e.value, e.state, delta, e.length);
  }
  // The same under the key's lock: a replica's flush reaching its main copy
  // (a replica here takes it too). False if the key is absent.
  bool ApplyDeltaTo(Key key, const float* delta) {
    return With(key, false, [&](Entry& e) { ApplyDelta(e, delta); });
  }

  // Runs f(Entry&) under the key's stripe lock. f must not call into the runtime.
  template <typename F>
  bool With(Key key, bool create, F&& f) {
    Stripe& s = StripeOf(key);
    LockGuard<SpinLock> guard(s.lock);
    Slot* slot = create ? FindOrCreate(s, key, Mix64(key)) : s.index.Find(key);
    if (slot == nullptr) return false;
    Entry e = View(s, *slot);
    f(e);
    return true;
  }

  // Runs f(Entry& a, Entry& b) under both keys' stripe locks: one lock when
  // they share a stripe, else two taken in stripe order (every caller that
  // holds two takes them so, and everyone else holds one, so none deadlock).
  // False, and f not run, unless both keys are held here (main copy or
  // replica). REQUIRES: a != b. f must not call into the runtime.
  template <typename F>
  bool WithPair(Key a, Key b, F&& f) {
    const uint64_t ha = Mix64(a), hb = Mix64(b);
    const uint64_t sa = StripeOfHash(ha), sb = StripeOfHash(hb);
    Stripe& first = stripes_[sa < sb ? sa : sb];
    LockGuard<SpinLock> first_guard(first.lock);
    if (sa == sb) return WithPairLocked(first, first, a, ha, b, hb, f);
    Stripe& second = stripes_[sa < sb ? sb : sa];
    LockGuard<SpinLock> second_guard(second.lock);
    return sa < sb ? WithPairLocked(first, second, a, ha, b, hb, f)
                   : WithPairLocked(second, first, a, ha, b, hb, f);
  }

  // A hint, no lock and no effect on contents: starts loading the index
  // bucket where a lookup of `key` begins, from the stripe's lock-free hint
  // (a stale hint loads a useless line). A caller that will take WithPair
  // on keys a few steps ahead overlaps their bucket misses this way.
  void Prefetch(Key key) const {
    const uint64_t h = Mix64(key);
    const Stripe& s = stripes_[StripeOfHash(h)];
    const char* base = s.hint_base.load(std::memory_order_relaxed);
    if (base != nullptr)
      __builtin_prefetch(base + (h & s.hint_mask.load(std::memory_order_relaxed)) *
                                    FlatKeyMap<Slot>::bucket_stride());
  }

  // Inserts or overwrites an entry from a row (value + state): relocation
  // hand-over, replica creation, restore. A replica starts with a zero delta.
  void Install(Key key, CopyKind kind, const float* row, uint16_t version = 0);
  // Removes the entry; copies its row into `row_out` (if not null). False if absent.
  bool Remove(Key key, float* row_out);
  // Atomically (one lock): copies a replica's delta (DeltaLength floats) out
  // and removes it. False if no replica.
  bool TakeReplica(Key key, float* delta_out);
  // Atomically replaces the key's entry with a main copy from `row`; if it was
  // a replica, its unsynchronised delta is then applied to it.
  void InstallMain(Key key, const float* row, uint16_t version);
  // Whether the key is held here (main copy or replica): HeldNow's bit
  // where the layout's ranges track the key, else a locked lookup.
  bool Contains(Key key);
  // Whether the key is held here (as Contains), without a lock, for keys in
  // the layout's dense ranges (HeldBitmap); kUnknown for other keys.
  HeldBitmap::Held HeldNow(Key key) const { return held_.Get(key); }
  size_t Size();
  // Calls f(key, Entry&) for every entry, one stripe locked at a time.
  void ForEach(const std::function<void(Key, Entry&)>& f);
  // Copies the row (value + state) into row_out. False if absent.
  bool ReadRow(Key key, float* row_out);

 private:
  struct alignas(64) Stripe {  // own cache lines: no false sharing of locks
    SpinLock lock;
    FlatKeyMap<Slot> index;
    RowArena arena;
    // Where the index's buckets were at its last insert, readable without
    // the lock: a batch call prefetches its first keys' buckets from it
    // before it takes any lock, and Prefetch(key) a key's. A stale hint only
    // prefetches a useless line.
    std::atomic<const char*> hint_base{nullptr};
    std::atomic<uint64_t> hint_mask{0};
  };

  // Stripe from high hash bits, bucket from low bits: independent choices.
  uint64_t StripeOfHash(uint64_t hash) const { return (hash >> 40) & stripe_mask_; }
  Stripe& StripeOf(Key key) { return stripes_[StripeOfHash(Mix64(key))]; }
  // Which lines of a found row a batch call prefetches before row_op runs:
  // none (the rows are not read), the value (a copy out or in), or the whole
  // slot (an update that also reads the optimizer state and replica delta).
  // Prefetching lines the op does not touch only fills the line buffers.
  enum class RowTouch { kNone, kValue, kSlot };
  // Groups keys by stripe and calls row_op(i, Entry&) for each, one lock per
  // stripe.
  template <RowTouch kTouch, typename RowOp>
  void ForBatch(std::span<const Key> keys, bool main_only, bool create, BatchScratch* scratch,
                RowOp&& row_op);
  // WithPair's body, its locks held: sa holds a's stripe, sb b's.
  template <typename F>
  bool WithPairLocked(Stripe& sa, Stripe& sb, Key a, uint64_t ha, Key b, uint64_t hb, F& f) {
    Slot* x = sa.index.FindHashed(a, ha);
    Slot* y = x == nullptr ? nullptr : sb.index.FindHashed(b, hb);
    if (y == nullptr) return false;
    Entry ea = View(sa, *x);
    Entry eb = View(sb, *y);
    f(ea, eb);
    return true;
  }
  Slot* FindOrCreate(Stripe& s, Key key, uint64_t hash);
  Slot* Allocate(Stripe& s, Key key, uint64_t hash, CopyKind kind);
  void Free(Stripe& s, const Slot& slot);
  // Removes the key's index entry (its row is Free'd separately).
  void Erase(Stripe& s, Key key);
  uint32_t SlotFloats(const Slot& slot) const {
    return slot.length * (1 + optimizer_.StateRows()) * (slot.kind == CopyKind::kReplica ? 2 : 1);
  }
  Entry View(Stripe& s, Slot& slot) const {
    float* base = s.arena.At(slot.offset);
    const uint32_t rows = optimizer_.StateRows();
    return Entry{base,
                 rows > 0 ? base + slot.length : nullptr,
                 slot.kind == CopyKind::kReplica ? base + slot.length * (1 + rows) : nullptr,
                 slot.length,
                 slot.kind,
                 &slot.version};
  }

  ValueLayout layout_;
  Initializer init_;
  OptimizerConfig optimizer_;
  HeldBitmap held_{layout_};  // set and cleared with the index entries, under the stripe locks
  ChunkPool chunks_;          // the stripes' arenas' memory: declared before them, outlives them
  std::unique_ptr<Stripe[]> stripes_;
  uint64_t stripe_mask_;
  std::atomic<uint64_t> moves_{0};
};

}  // namespace augur

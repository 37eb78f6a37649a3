#include "core/store/param_store.h"

#include <algorithm>
#include <cstring>

#include "core/base/check.h"

namespace augur {

ParamStore::ParamStore(ValueLayout layout, Initializer init, OptimizerConfig optimizer,
                       uint32_t stripes)
    : layout_(std::move(layout)), init_(std::move(init)), optimizer_(optimizer) {
  AUGUR_CHECK(stripes > 0 && (stripes & (stripes - 1)) == 0, "stripes=%u must be a power of two",
              stripes);
  stripes_ = std::make_unique<Stripe[]>(stripes);
  for (uint32_t i = 0; i < stripes; ++i) stripes_[i].arena.SetPool(&chunks_);
  stripe_mask_ = stripes - 1;
}

ParamStore::Slot* ParamStore::Allocate(Stripe& s, Key key, uint64_t hash, CopyKind kind) {
  Slot slot;
  slot.length = layout_.Length(key);
  slot.kind = kind;
  const uint32_t floats = SlotFloats(slot);
  slot.offset = s.arena.Allocate(floats);
  float* base = s.arena.At(slot.offset);
  std::fill_n(base + slot.length, slot.length * optimizer_.StateRows(),
              optimizer_.initial_accumulator);
  Slot* inserted = s.index.InsertHashed(key, hash, slot).first;
  held_.Set(key, true);
  s.hint_base.store(s.index.bucket_base(), std::memory_order_relaxed);
  s.hint_mask.store(s.index.bucket_mask(), std::memory_order_relaxed);
  return inserted;
}

void ParamStore::Erase(Stripe& s, Key key) {
  s.index.Erase(key);
  held_.Set(key, false);
}

void ParamStore::Free(Stripe& s, const Slot& slot) {
  // acq_rel: the row's later reuse (writes) cannot move before the count, so
  // a reader that saw them sees the count too (Worker::HeldUnmoved).
  moves_.fetch_add(1, std::memory_order_acq_rel);
  s.arena.Free(slot.offset, SlotFloats(slot));
}

ParamStore::Slot* ParamStore::FindOrCreate(Stripe& s, Key key, uint64_t hash) {
  if (Slot* slot = s.index.FindHashed(key, hash)) return slot;
  Slot* slot = Allocate(s, key, hash, CopyKind::kMain);
  if (init_) init_(key, std::span<float>(s.arena.At(slot->offset), slot->length));
  return slot;
}

void ParamStore::SetSpinYield(SpinYield yield) {
  for (uint64_t i = 0; i <= stripe_mask_; ++i) stripes_[i].lock.set_yield(yield);
}

template <ParamStore::RowTouch kTouch, typename RowOp>
void ParamStore::ForBatch(std::span<const Key> keys, bool main_only, bool create, BatchScratch* sc,
                          RowOp&& row_op) {
  const size_t stripes = stripe_mask_ + 1;
  sc->stripe_start.assign(stripes + 1, 0);
  sc->order.resize(keys.size());
  sc->slots.resize(keys.size());
  sc->found.assign(keys.size(), 0);
  sc->missing.clear();
  sc->hashes.resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    sc->hashes[i] = Mix64(keys[i]);
    ++sc->stripe_start[StripeOfHash(sc->hashes[i]) + 1];
  }
  for (size_t i = 0; i < stripes; ++i) sc->stripe_start[i + 1] += sc->stripe_start[i];
  // Counting sort of key indices by stripe (stripe_start[s] ends as the end of s).
  for (uint32_t i = 0; i < keys.size(); ++i)
    sc->order[sc->stripe_start[StripeOfHash(sc->hashes[i])]++] = i;
  // The buckets of the first kPrefetchKeys keys (in stripe order), from the
  // stripes' lock-free hints, before any lock: a small batch (a kge
  // triple's 15 keys, spread over as many stripes) has every lookup's miss
  // in flight at once. A larger batch's later groups prefetch their own
  // buckets as they are served; prefetching them one group ahead as well
  // took line-fill buffers from the rows' prefetches (LocalPull/100 0.70-0.74
  // -> 0.75-0.78 of memcpy without it, LocalPush 0.61-0.64 -> 0.64-0.66;
  // docs/measurements/2026-12-07-night-bucket-lookahead.md).
  constexpr uint32_t kPrefetchKeys = 16;
  for (uint32_t j = 0; j < std::min<size_t>(kPrefetchKeys, keys.size()); ++j) {
    const uint64_t h = sc->hashes[sc->order[j]];
    const Stripe& s = stripes_[StripeOfHash(h)];
    const char* base = s.hint_base.load(std::memory_order_relaxed);
    if (base != nullptr)
      __builtin_prefetch(base + (h & s.hint_mask.load(std::memory_order_relaxed)) *
                                    FlatKeyMap<Slot>::bucket_stride());
  }
  // Stripe st's keys are order[begin, end); its lock is held.
  const auto serve = [&](Stripe & s, uint32_t begin, uint32_t end) __attribute__((always_inline)) {
    for (uint32_t j = begin; j < end; ++j) s.index.PrefetchHashed(sc->hashes[sc->order[j]]);
    for (uint32_t j = begin; j < end; ++j) {
      const uint32_t i = sc->order[j];
      // The lookup inline; only a miss that creates calls out.
      const Slot* slot = s.index.FindHashed(keys[i], sc->hashes[i]);
      if (slot == nullptr && create) slot = FindOrCreate(s, keys[i], sc->hashes[i]);
      if (slot == nullptr || (main_only && slot->kind != CopyKind::kMain)) continue;
      // The lines the op reads: its copies wait on all of them at once, not
      // line by line.
      if constexpr (kTouch != RowTouch::kNone) {
        const char* row = reinterpret_cast<const char*>(s.arena.At(slot->offset));
        const size_t floats = kTouch == RowTouch::kValue ? slot->length : SlotFloats(*slot);
        const size_t bytes = floats * sizeof(float);
        for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(row + b);
      }
      sc->slots[j] = *slot;
      sc->found[i] = 1;
    }
    if constexpr (kTouch != RowTouch::kNone) {
      for (uint32_t j = begin; j < end; ++j) {
        if (!sc->found[sc->order[j]]) continue;
        Entry e = View(s, sc->slots[j]);
        row_op(sc->order[j], e);
      }
    }
  };
  // A stripe another thread holds is skipped and served after the others:
  // two threads sweeping the stripes in the same order (a worker's batch and
  // the protocol thread serving a peer's) would otherwise follow each other
  // stripe by stripe, each waiting at every lock. The keys of one stripe keep
  // their order; stripes are independent.
  sc->busy_stripes.clear();
  uint32_t begin = 0;
  for (size_t st = 0; st < stripes; ++st) {
    const uint32_t end = sc->stripe_start[st];
    if (begin == end) continue;
    Stripe& s = stripes_[st];
    if (s.lock.try_lock()) {
      serve(s, begin, end);
      s.lock.unlock();
    } else {
      sc->busy_stripes.push_back(static_cast<uint32_t>(st));
    }
    begin = end;
  }
  for (uint32_t st : sc->busy_stripes) {
    Stripe& s = stripes_[st];
    LockGuard<SpinLock> guard(s.lock);
    serve(s, st == 0 ? 0 : sc->stripe_start[st - 1], sc->stripe_start[st]);
  }
  for (uint32_t i = 0; i < keys.size(); ++i)
    if (!sc->found[i]) sc->missing.push_back(i);
}

void ParamStore::PullBatch(std::span<const Key> keys, std::span<const uint32_t> offsets, float* out,
                           BatchScratch* scratch, bool create) {
  ForBatch<RowTouch::kValue>(keys, false, create, scratch, [&](uint32_t i, Entry& e) {
    std::memcpy(out + offsets[i], e.value, e.length * sizeof(float));
  });
}

void ParamStore::PushBatch(std::span<const Key> keys, std::span<const uint32_t> offsets,
                           const float* in, BatchScratch* scratch, bool create) {
  ForBatch<RowTouch::kSlot>(keys, false, create, scratch,
                            [&](uint32_t i, Entry& e) { ApplyPush(e, in + offsets[i]); });
}

void ParamStore::UpdateResolved(std::span<const Key> keys, std::span<const Entry> entries,
                                uint64_t since, std::span<const float* const> updates,
                                BatchScratch* scratch) {
  scratch->missing.clear();
  for (uint32_t i = 0; i < keys.size(); ++i) {
    Stripe& s = StripeOf(keys[i]);
    LockGuard<SpinLock> guard(s.lock);
    // Under the key's lock: freeing its entry would need this lock, so an
    // unchanged count means entries[i] is still the key's.
    Entry e = entries[i];
    if (moves_.load(std::memory_order_relaxed) != since) {
      Slot* slot = s.index.Find(keys[i]);
      if (slot == nullptr) {
        scratch->missing.push_back(i);
        continue;
      }
      e = View(s, *slot);
    }
    ApplyUpdate(optimizer_, e.value, e.state, updates[i], e.length);
    if (e.delta != nullptr) AccumulateDelta(optimizer_, updates[i], e.length, e.delta);
  }
}

void ParamStore::SetBatch(std::span<const Key> keys, std::span<const uint32_t> offsets,
                          const float* in, BatchScratch* scratch, bool create) {
  ForBatch<RowTouch::kValue>(keys, true, create, scratch, [&](uint32_t i, Entry& e) {
    std::memcpy(e.value, in + offsets[i], e.length * sizeof(float));
  });
}

void ParamStore::HeldBatch(std::span<const Key> keys, bool main_only, BatchScratch* scratch) {
  ForBatch<RowTouch::kNone>(keys, main_only, false, scratch, [](uint32_t, Entry&) {});
}

void ParamStore::PullMainBatch(std::span<const Key> keys, std::span<const uint32_t> offsets,
                               float* out, BatchScratch* scratch) {
  ForBatch<RowTouch::kValue>(keys, true, false, scratch, [&](uint32_t i, Entry& e) {
    std::memcpy(out + offsets[i], e.value, e.length * sizeof(float));
  });
}

void ParamStore::PushMainBatch(std::span<const Key> keys, std::span<const uint32_t> offsets,
                               const float* in, BatchScratch* scratch) {
  ForBatch<RowTouch::kSlot>(keys, true, false, scratch,
                            [&](uint32_t i, Entry& e) { ApplyPush(e, in + offsets[i]); });
}

void ParamStore::ResolveBatch(std::span<const Key> keys, Entry* entries, BatchScratch* scratch,
                              bool create) {
  ForBatch<RowTouch::kSlot>(keys, false, create, scratch, [&](uint32_t i, Entry& e) {
    entries[i] = e;
    entries[i].version = nullptr;  // e's points into the scratch copy of the slot
  });
}

bool ParamStore::Pull(Key key, float* out, bool create) {
  return With(key, create, [&](Entry& e) { std::memcpy(out, e.value, e.length * sizeof(float)); });
}

bool ParamStore::Push(Key key, const float* update, bool create) {
  return With(key, create, [&](Entry& e) { ApplyPush(e, update); });
}

bool ParamStore::Set(Key key, const float* value, bool create) {
  return With(key, create,
              [&](Entry& e) { std::memcpy(e.value, value, e.length * sizeof(float)); });
}

void ParamStore::Install(Key key, CopyKind kind, const float* row, uint16_t version) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  if (Slot* old = s.index.Find(key)) {
    Free(s, *old);
    s.index.Erase(key);  // replaced below: its held bit stays set throughout
  }
  Slot* slot = Allocate(s, key, Mix64(key), kind);
  slot->version = version;
  std::memcpy(s.arena.At(slot->offset), row, RowLength(key) * sizeof(float));
}

bool ParamStore::Remove(Key key, float* row_out) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  Slot* slot = s.index.Find(key);
  if (slot == nullptr) return false;
  if (row_out != nullptr)
    std::memcpy(row_out, s.arena.At(slot->offset), RowLength(key) * sizeof(float));
  Free(s, *slot);
  Erase(s, key);
  return true;
}

bool ParamStore::TakeReplica(Key key, float* delta_out) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  Slot* slot = s.index.Find(key);
  if (slot == nullptr || slot->kind != CopyKind::kReplica) return false;
  const Entry e = View(s, *slot);
  std::memcpy(delta_out, e.delta, DeltaLength(key) * sizeof(float));
  Free(s, *slot);
  Erase(s, key);
  return true;
}

void ParamStore::InstallMain(Key key, const float* row, uint16_t version) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  std::vector<float> delta;
  if (Slot* old = s.index.Find(key)) {
    const Entry e = View(s, *old);
    if (e.delta != nullptr) delta.assign(e.delta, e.delta + DeltaLength(key));
    Free(s, *old);
    s.index.Erase(key);  // replaced below: its held bit stays set throughout
  }
  const uint64_t hash = Mix64(key);
  Slot* slot = Allocate(s, key, hash, CopyKind::kMain);
  slot->version = version;
  float* base = s.arena.At(slot->offset);
  std::memcpy(base, row, RowLength(key) * sizeof(float));
  if (!delta.empty()) ApplyDelta(View(s, *slot), delta.data());
}

bool ParamStore::Contains(Key key) {
  // The bitmap's bit changes with the index entry, under the same lock: a
  // caller ordered after an insert or erase sees it in either.
  if (const HeldBitmap::Held h = held_.Get(key); h != HeldBitmap::Held::kUnknown)
    return h == HeldBitmap::Held::kYes;
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  return s.index.Find(key) != nullptr;
}

size_t ParamStore::Size() {
  size_t n = 0;
  for (uint64_t i = 0; i <= stripe_mask_; ++i) {
    LockGuard<SpinLock> guard(stripes_[i].lock);
    n += stripes_[i].index.size();
  }
  return n;
}

void ParamStore::ForEach(const std::function<void(Key, Entry&)>& f) {
  for (uint64_t i = 0; i <= stripe_mask_; ++i) {
    Stripe& s = stripes_[i];
    LockGuard<SpinLock> guard(s.lock);
    s.index.ForEach([&](Key key, Slot& slot) {
      Entry e = View(s, slot);
      f(key, e);
    });
  }
}

}  // namespace augur

namespace augur {

bool ParamStore::ReadRow(Key key, float* row_out) {
  const uint32_t n = RowLength(key);
  return With(key, false, [&](Entry& e) { std::memcpy(row_out, e.value, n * sizeof(float)); });
}

}  // namespace augur

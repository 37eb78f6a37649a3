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
  stripe_mask_ = stripes - 1;
}

ParamStore::Slot* ParamStore::Allocate(Stripe& s, Key key, CopyKind kind) {
  Slot slot;
  slot.length = layout_.Length(key);
  slot.kind = kind;
  const uint32_t floats = SlotFloats(slot);
  auto it = s.free_by_size.find(floats);
  if (it != s.free_by_size.end() && !it->second.empty()) {
    slot.offset = it->second.back();
    it->second.pop_back();
  } else {
    slot.offset = s.arena.size();
    s.arena.resize(s.arena.size() + floats);
  }
  float* base = s.arena.data() + slot.offset;
  std::fill_n(base, floats, 0.0f);
  std::fill_n(base + slot.length, slot.length * optimizer_.StateRows(),
              optimizer_.initial_accumulator);
  return s.index.Insert(key, slot).first;
}

void ParamStore::Free(Stripe& s, const Slot& slot) {
  s.free_by_size[SlotFloats(slot)].push_back(slot.offset);
}

ParamStore::Slot* ParamStore::FindOrCreate(Stripe& s, Key key) {
  if (Slot* slot = s.index.Find(key)) return slot;
  Slot* slot = Allocate(s, key, CopyKind::kMain);
  if (init_) init_(key, std::span<float>(s.arena.data() + slot->offset, slot->length));
  return slot;
}

bool ParamStore::Pull(Key key, float* out, bool create) {
  return With(key, create, [&](Entry& e) { std::memcpy(out, e.value, e.length * sizeof(float)); });
}

bool ParamStore::Push(Key key, const float* update, bool create) {
  return With(key, create, [&](Entry& e) {
    ApplyUpdate(optimizer_, e.value, e.state, update, e.length);
    if (e.delta != nullptr)
      for (uint32_t i = 0; i < e.length; ++i) e.delta[i] += update[i];
  });
}

bool ParamStore::Set(Key key, const float* value, bool create) {
  return With(key, create, [&](Entry& e) { std::memcpy(e.value, value, e.length * sizeof(float)); });
}

void ParamStore::Install(Key key, CopyKind kind, const float* row, uint64_t version) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  if (Slot* old = s.index.Find(key)) {
    Free(s, *old);
    s.index.Erase(key);
  }
  Slot* slot = Allocate(s, key, kind);
  slot->version = version;
  std::memcpy(s.arena.data() + slot->offset, row, RowLength(key) * sizeof(float));
}

bool ParamStore::Remove(Key key, float* row_out) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  Slot* slot = s.index.Find(key);
  if (slot == nullptr) return false;
  if (row_out != nullptr)
    std::memcpy(row_out, s.arena.data() + slot->offset, RowLength(key) * sizeof(float));
  Free(s, *slot);
  s.index.Erase(key);
  return true;
}

bool ParamStore::Contains(Key key) {
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

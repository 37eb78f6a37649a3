#include "core/store/param_store.h"

#include <algorithm>
#include <cstring>

#include "core/base/check.h"

namespace augur {

ParamStore::ParamStore(ValueLayout layout, Initializer init, uint32_t stripes)
    : layout_(std::move(layout)), init_(std::move(init)) {
  AUGUR_CHECK(stripes > 0 && (stripes & (stripes - 1)) == 0, "stripes=%u must be a power of two",
              stripes);
  stripes_ = std::make_unique<Stripe[]>(stripes);
  stripe_mask_ = stripes - 1;
}

ParamStore::Slot* ParamStore::Allocate(Stripe& s, Key key, CopyKind kind) {
  Slot slot;
  slot.length = layout_.Length(key);
  slot.kind = kind;
  const uint32_t floats = slot.length * (kind == CopyKind::kReplica ? 2 : 1);
  auto it = s.free_by_size.find(floats);
  if (it != s.free_by_size.end() && !it->second.empty()) {
    slot.offset = it->second.back();
    it->second.pop_back();
  } else {
    slot.offset = s.arena.size();
    s.arena.resize(s.arena.size() + floats);
  }
  std::fill_n(s.arena.data() + slot.offset, floats, 0.0f);
  return s.index.Insert(key, slot).first;
}

void ParamStore::Free(Stripe& s, const Slot& slot) {
  const uint32_t floats = slot.length * (slot.kind == CopyKind::kReplica ? 2 : 1);
  s.free_by_size[floats].push_back(slot.offset);
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
    for (uint32_t i = 0; i < e.length; ++i) e.value[i] += update[i];
    if (e.delta != nullptr)
      for (uint32_t i = 0; i < e.length; ++i) e.delta[i] += update[i];
  });
}

bool ParamStore::Set(Key key, const float* value, bool create) {
  return With(key, create, [&](Entry& e) {
    if (e.delta != nullptr)
      for (uint32_t i = 0; i < e.length; ++i) e.delta[i] += value[i] - e.value[i];
    std::memcpy(e.value, value, e.length * sizeof(float));
  });
}

void ParamStore::Install(Key key, CopyKind kind, const float* value) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  if (Slot* old = s.index.Find(key)) {
    Free(s, *old);
    s.index.Erase(key);
  }
  Slot* slot = Allocate(s, key, kind);
  std::memcpy(s.arena.data() + slot->offset, value, slot->length * sizeof(float));
}

bool ParamStore::Remove(Key key, float* value_out) {
  Stripe& s = StripeOf(key);
  LockGuard<SpinLock> guard(s.lock);
  Slot* slot = s.index.Find(key);
  if (slot == nullptr) return false;
  if (value_out != nullptr)
    std::memcpy(value_out, s.arena.data() + slot->offset, slot->length * sizeof(float));
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
    s.index.ForEach([&](Key key, const Slot& slot) {
      Entry e = View(s, slot);
      f(key, e);
    });
  }
}

}  // namespace augur

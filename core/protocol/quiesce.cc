#include "core/protocol/quiesce.h"

#include "core/base/check.h"
#include "core/protocol/intent_tracker.h"
#include "core/protocol/relocation.h"

namespace augur {

void Quiesce::PauseActions(bool paused) {
  Effects fx = Effects::ForWorker();
  {
    EngineLock g(cx_, fx);
    paused_ = paused;
    if (!paused) intents_.ActOnAll(&fx);  // catch up
  }
  cx_.Flush(fx);
}

bool Quiesce::NothingIncoming() {
  LockGuard<Mutex> g(cx_.mu());
  return relocation_.NothingIncoming();
}

void Quiesce::CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) {
  keys->clear();
  rows->clear();
  ParamStore& store = cx_.store;
  store.ForEach([&](Key key, ParamStore::Entry& e) {
    if (e.kind != CopyKind::kMain) return;
    keys->push_back(key);
    rows->emplace_back(e.value, e.value + store.RowLength(key));
  });
}

void Quiesce::InstallMainRows(std::span<const Key> keys, std::span<const float> rows) {
  LockGuard<Mutex> g(cx_.mu());
  size_t at = 0;
  for (Key k : keys) {
    const uint32_t n = cx_.store.RowLength(k);
    AUGUR_CHECK(cx_.HomeOf(k) == cx_.self && relocation_.DirectoryEntry(k) == nullptr &&
                    !relocation_.Incoming(k),
                "restoring key %llu that is not owned here", static_cast<unsigned long long>(k));
    AUGUR_CHECK(at + n <= rows.size(), "restore rows short at key %llu",
                static_cast<unsigned long long>(k));
    cx_.store.Install(k, CopyKind::kMain, rows.data() + at);
    at += n;
  }
  AUGUR_CHECK(at == rows.size(), "restore rows: %zu floats left over", rows.size() - at);
}

}  // namespace augur

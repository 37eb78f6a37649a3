// Node: quiescence and whole-row snapshots, for consistent checkpoints.
//
// A key is in transfer exactly while the node that asked for it has it in
// incoming_ (a localize request, or a hand-over coming home). With actions
// paused no node starts a new request, so once every node's incoming_ is
// empty no row is travelling, and the main copies in the stores together
// hold every key exactly once. Rows are value followed by optimizer state
// (ParamStore::ReadRow's layout).
#include <cstring>

#include "core/base/check.h"
#include "core/protocol/node.h"

namespace augur {

void Node::PauseActions(bool paused) {
  Effects fx;
  {
    EngineLock g(*this, fx);
    actions_paused_ = paused;
    if (!paused) {
      for (WorkerId w = 0; w < workers_.size(); ++w) ActOnIntents(w, &fx);  // catch up
    }
  }
  Flush(fx);
}

bool Node::NothingIncoming() {
  LockGuard<Mutex> g(*mu_);
  return incoming_.empty();
}

void Node::CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) {
  keys->clear();
  rows->clear();
  store_.ForEach([&](Key key, ParamStore::Entry& e) {
    if (e.kind != CopyKind::kMain) return;
    keys->push_back(key);
    rows->emplace_back(e.value, e.value + store_.RowLength(key));
  });
}

void Node::InstallMainRows(std::span<const Key> keys, std::span<const float> rows) {
  LockGuard<Mutex> g(*mu_);
  size_t at = 0;
  for (Key k : keys) {
    const uint32_t n = store_.RowLength(k);
    AUGUR_CHECK(HomeOf(k) == self_ && directory_.count(k) == 0 && incoming_.count(k) == 0,
                "restoring key %llu that is not owned here", static_cast<unsigned long long>(k));
    AUGUR_CHECK(at + n <= rows.size(), "restore rows short at key %llu",
                static_cast<unsigned long long>(k));
    store_.Install(k, CopyKind::kMain, rows.data() + at);
    at += n;
  }
  AUGUR_CHECK(at == rows.size(), "restore rows: %zu floats left over", rows.size() - at);
}

}  // namespace augur

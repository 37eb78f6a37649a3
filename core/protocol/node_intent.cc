// Node: intent signals and when to act on them (REFERENCE §2.6 "when").
//
// Signals are recorded per worker; whenever a worker's clock moves (and at
// every sync round, when the action window is re-estimated) the signals whose
// start entered the window activate. A key the node newly wants and does not
// hold is requested from its owner, if the Policy localizes on intent.
// Replicas whose intent ended are dropped at the next sync round.
// A one-node cluster only counts the signals: it has nothing to act on.
#include "core/protocol/node.h"

namespace augur {

void Node::RecordIntent(WorkerId w, std::span<const Key> keys, Clock start, Clock end) {
  counters_.intents.fetch_add(1, std::memory_order_relaxed);
  counters_.intent_keys.fetch_add(keys.size(), std::memory_order_relaxed);
  if (solo()) return;
  Effects fx;
  {
    EngineLock g(*this, fx);
    intents_.Add(w, keys, start, end, clocks_[w]);
    ActOnIntents(w, &fx);
    // Sync rounds also re-estimate the action window.
    fx.arm_timer = !timer_armed_ && policy_->LocalizesOnIntent();
  }
  Flush(fx);
}

void Node::RecordClock(WorkerId w, Clock clock) {
  if (solo()) return;
  Effects fx;
  {
    EngineLock g(*this, fx);
    clocks_[w] = clock;
    ActOnIntents(w, &fx);
  }
  Flush(fx);
}

void Node::ActOnIntents(WorkerId w, Effects* fx) {
  // Paused: the signals stay pending and activate once actions resume.
  if (actions_paused_) return;
  std::vector<Key> wanted, unwanted;
  std::vector<Clock> leads;
  intents_.Advance(w, clocks_[w], timing_.Horizon(w, clocks_[w]), &wanted, &unwanted, &leads);
  for (Clock lead : leads) RecordLead(lead);
  if (!policy_->LocalizesOnIntent()) return;
  for (Key k : wanted) {
    if (incoming_.count(k) || store_.Contains(k)) continue;
    if (HomeOf(k) == self_ && !directory_.count(k)) {
      // Never touched and homed here: create it now, so the access is local.
      store_.With(k, /*create=*/true, [](ParamStore::Entry&) {});
      continue;
    }
    RequestLocalize(k, fx);
  }
}

}  // namespace augur

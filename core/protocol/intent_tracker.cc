#include "core/protocol/intent_tracker.h"

#include <algorithm>

#include "core/protocol/quiesce.h"
#include "core/protocol/relocation.h"

namespace augur {

namespace {
constexpr size_t kLeadBuckets = 1024;
}  // namespace

IntentTracker::IntentTracker(EngineContext& cx, Relocation& relocation, Quiesce& quiesce,
                             uint32_t workers, bool act_immediately)
    : cx_(cx),
      relocation_(relocation),
      quiesce_(quiesce),
      intents_(workers),
      timing_(workers, act_immediately),
      clocks_(workers, 0),
      lead_histogram_(kLeadBuckets, 0) {}

void IntentTracker::RecordIntents(WorkerId w, std::span<const IntentSignal> signals) {
  size_t keys = 0;
  for (const IntentSignal& s : signals) keys += s.keys.size();
  cx_.counters.Add(NodeCounter::kIntents, signals.size());
  cx_.counters.Add(NodeCounter::kIntentKeys, keys);
  if (cx_.solo() || signals.empty()) return;
  Effects fx = Effects::ForWorker();
  {
    EngineLock g(cx_, fx);
    for (const IntentSignal& s : signals) intents_.Add(w, s.keys, s.start, s.end, clocks_[w]);
    ActOnIntents(w, &fx);
    // Sync rounds also re-estimate the action window.
    fx.arm_timer = !cx_.timer_armed && cx_.policy.LocalizesOnIntent();
  }
  cx_.Flush(fx);
}

void IntentTracker::RecordClock(WorkerId w, Clock clock) {
  if (cx_.solo()) return;
  Effects fx = Effects::ForWorker();
  {
    EngineLock g(cx_, fx);
    clocks_[w] = clock;
    ActOnIntents(w, &fx);
  }
  cx_.Flush(fx);
}

void IntentTracker::OnSyncRound(Effects* fx) {
  for (WorkerId w = 0; w < clocks_.size(); ++w) {
    timing_.OnSyncRound(w, clocks_[w]);
    ActOnIntents(w, fx);  // the window may have grown
  }
}

void IntentTracker::ActOnAll(Effects* fx) {
  for (WorkerId w = 0; w < clocks_.size(); ++w) ActOnIntents(w, fx);
}

void IntentTracker::ActOnIntents(WorkerId w, Effects* fx) {
  // Paused: the signals stay pending and activate once actions resume.
  if (quiesce_.paused()) return;
  wanted_.clear();
  unwanted_.clear();
  leads_.clear();
  intents_.Advance(w, clocks_[w], timing_.Horizon(w, clocks_[w]), &wanted_, &unwanted_, &leads_);
  for (Clock lead : leads_) RecordLead(lead);
  if (!cx_.policy.LocalizesOnIntent()) return;
  for (Key k : wanted_) {
    if (relocation_.Incoming(k) || cx_.store.Contains(k)) continue;
    if (cx_.HomeOf(k) == cx_.self && relocation_.DirectoryEntry(k) == nullptr) {
      // Never touched and homed here: create it now, so the access is local.
      cx_.store.With(k, /*create=*/true, [](ParamStore::Entry&) {});
      continue;
    }
    relocation_.RequestLocalize(k, fx);
  }
}

void IntentTracker::RecordLead(Clock lead) {
  const size_t b = lead < 0 ? 0 : std::min<size_t>(static_cast<size_t>(lead), kLeadBuckets - 1);
  ++lead_histogram_[b];
}

void IntentTracker::AddLeadStats(MetricsSnapshot* s) const {
  uint64_t n = 0;
  for (size_t b = 0; b < lead_histogram_.size(); ++b) {
    n += lead_histogram_[b];
    s->lead_clocks_sum += static_cast<double>(b) * lead_histogram_[b];
  }
  s->lead_count = n;
  uint64_t seen = 0;
  for (size_t b = 0; b < lead_histogram_.size() && n > 0; ++b) {
    seen += lead_histogram_[b];
    if (seen * 100 >= n * 99) {
      s->lead_clocks_p99 = static_cast<double>(b);
      break;
    }
  }
}

}  // namespace augur

// IntentTracker: intent signals and when to act on them.
//
// Signals are recorded per worker; whenever a worker's clock moves (and at
// every sync round, when the action window is re-estimated, ActionTiming)
// the signals whose start entered the window activate. A key the node newly
// wants and does not hold is requested from its owner (Relocation), if the
// Policy localizes on intent. Replicas whose intent ended are dropped at the
// next sync round (Replication reads ActiveCount). A one-node cluster only
// counts the signals: it has nothing to act on.
//
// Owns: the intent table, the action timing, the workers' clocks as last
// reported and the histogram of intent leads.
// Locking: RecordIntents and RecordClock take the engine lock themselves;
// every other method REQUIRES the engine lock held.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/api/node_port.h"
#include "core/base/types.h"
#include "core/metrics/node_metrics.h"
#include "core/protocol/action_timing.h"
#include "core/protocol/effects.h"
#include "core/protocol/engine_context.h"
#include "core/protocol/intent_table.h"

namespace augur {

class Quiesce;
class Relocation;

class IntentTracker {
 public:
  IntentTracker(EngineContext& cx, Relocation& relocation, Quiesce& quiesce, uint32_t workers,
                bool act_immediately);
  IntentTracker(const IntentTracker&) = delete;
  IntentTracker& operator=(const IntentTracker&) = delete;

  // Adds every signal, then acts once (one flush of the messages it causes).
  void RecordIntents(WorkerId w, std::span<const IntentSignal> signals);
  void RecordClock(WorkerId w, Clock clock);

  // REQUIRES (all below): engine lock held.
  void ActOnIntents(WorkerId w, Effects* fx);
  void ActOnAll(Effects* fx);
  // A sync round: re-estimates every worker's window and acts on it.
  void OnSyncRound(Effects* fx);
  IntentTable::Counts Active(Key key) const { return intents_.Active(key); }
  uint32_t ActiveCount(Key key) const { return intents_.ActiveCount(key); }
  void PrefetchActive(Key key) const { intents_.PrefetchActive(key); }
  // Fills s's lead fields (count, sum, p99) from the lead histogram.
  void AddLeadStats(MetricsSnapshot* s) const;

 private:
  void RecordLead(Clock lead);

  EngineContext& cx_;
  Relocation& relocation_;
  Quiesce& quiesce_;
  IntentTable intents_;
  ActionTiming timing_;
  std::vector<Clock> clocks_;             // per worker, as last reported
  std::vector<uint64_t> lead_histogram_;  // intent lead, clocks
  // ActOnIntents' scratch (engine lock held), reused so a clock allocates nothing.
  std::vector<Key> wanted_, unwanted_;
  std::vector<Clock> leads_;
};

}  // namespace augur

// Quiesce: pausing actions and whole-row snapshots, for consistent checkpoints.
//
// A key is in transfer exactly while the node that asked for it has it in
// Relocation's incoming queue (a localize request, or a hand-over coming
// home). With actions paused no node starts a new request, so once every
// node's queue is empty no row is travelling, and the main copies in the
// stores together hold every key exactly once. Rows are value followed by
// optimizer state (ParamStore::ReadRow's layout).
//
// Owns: the paused flag (no new localize requests; intents stay pending).
// Locking: PauseActions, NothingIncoming and InstallMainRows take the
// engine lock themselves; paused() REQUIRES it held; CopyMainRows reads
// the store only (its stripes lock).
#pragma once

#include <span>
#include <vector>

#include "core/base/types.h"
#include "core/protocol/engine_context.h"

namespace augur {

class IntentTracker;
class Relocation;

class Quiesce {
 public:
  Quiesce(EngineContext& cx, Relocation& relocation, IntentTracker& intents)
      : cx_(cx), relocation_(relocation), intents_(intents) {}
  Quiesce(const Quiesce&) = delete;
  Quiesce& operator=(const Quiesce&) = delete;

  // true: start no new relocation or replica request; false: resume and act
  // on what is pending.
  void PauseActions(bool paused);
  bool paused() const { return paused_; }
  bool NothingIncoming();
  void CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows);
  // REQUIRES: before any access of the run; keys homed at this node.
  void InstallMainRows(std::span<const Key> keys, std::span<const float> rows);

 private:
  EngineContext& cx_;
  Relocation& relocation_;
  IntentTracker& intents_;
  bool paused_ = false;
};

}  // namespace augur

// NodePort: what a Worker asks of its node's protocol engine.
//
// The Worker holds one (its Node implements it) and reaches the engine only
// through it; the store, the runtime and the worker's Parker are handed to
// the Worker directly at construction (the hot path, Pull/Push/Set on keys
// held here, calls none of this). Every method may take the node's engine
// lock, so none is called with it held, and none blocks: a worker waits
// only on its own Parker, re-checking its condition through these calls.
// Thread-safety: callable from any worker context concurrently.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/types.h"
#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"

namespace augur {

// One intent signal: "these keys will be accessed while the worker's clock
// is in [start, end)" (Worker::Intent).
struct IntentSignal {
  std::span<const Key> keys;
  Clock start = 0;
  Clock end = 0;
};

class NodePort {
 public:
  virtual ~NodePort() = default;

  // Worker w's operation whose keys keys[missing[i]] the local store did not
  // serve (offsets[i]: key i's float offset in `in`/`out`). Ticket 0 when
  // every one of them was served here after all.
  virtual Ticket SlowPath(WorkerId w, MessageType type, std::span<const Key> keys,
                          std::span<const uint32_t> offsets, std::span<const uint32_t> missing,
                          const float* in, std::span<float> out) = 0;
  virtual bool OpDone(uint64_t op_id) = 0;
  virtual bool WorkerIdle(WorkerId w) = 0;  // no operation of w is pending
  // What a parked worker waits for (SetWaiting): an operation id, every
  // operation of the worker (WaitAll), or something that is not an
  // operation (a barrier, no key in transfer), which the stall watchdog
  // does not judge (core/protocol/stall_watchdog.h).
  static constexpr uint64_t kNotAnOperation = 0;
  static constexpr uint64_t kAllOperations = ~uint64_t{0};
  // Whether w is parked or about to park: the engine unparks it when one of
  // its operations completes, a barrier opens or nothing is incoming. While
  // waiting: what for (`op`, above) and since when (`since`, Runtime::Now
  // when the wait began).
  virtual void SetWaiting(WorkerId w, bool waiting, uint64_t op, double since) = 0;

  // Several signals of w at once: the node acts on them together (one set
  // of messages), as on one signal.
  virtual void RecordIntents(WorkerId w, std::span<const IntentSignal> signals) = 0;
  virtual void RecordClock(WorkerId w, Clock clock) = 0;
  // Starts one sync round of every replica held here for w; its operation
  // id, or 0 when no replica is held.
  virtual uint64_t StartWaitSync(WorkerId w) = 0;

  // Arrives at the node's current barrier generation and returns it.
  virtual uint64_t ArriveAtBarrier(WorkerId w) = 0;
  virtual bool BarrierReleased(uint64_t generation) = 0;

  // Checkpoints (see Worker).
  virtual void PauseActions(bool paused) = 0;
  virtual bool NothingIncoming() = 0;
  virtual void CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) = 0;
  virtual void InstallMainRows(std::span<const Key> keys, std::span<const float> rows) = 0;

  virtual MetricsSnapshot Metrics() = 0;
};

}  // namespace augur

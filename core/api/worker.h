// Worker: the handle a training thread (or simulated worker) uses to access parameters.
//
// Owned by its Node; used by exactly one worker context at a time (not
// thread-safe by itself). All data operations are asynchronous and return a
// Ticket. A Pull's output buffer must stay valid until its ticket completes;
// Push and Set read their input before they return (the caller may reuse it
// at once), and their tickets complete when every key has been applied.
// Keys held locally (main copy or replica) take the hot path: direct store
// access under a short striped lock, no message, no engine lock. The others
// go through the node's protocol engine (NodePort::SlowPath): created at
// their home on first touch, queued if on their way here, else one batched
// request message per destination node. The Worker reaches its node only
// through NodePort (node_port.h) and the store, runtime and Parker it is
// given at construction.
//
// Values: each key has ValueLayout::Length(key) floats; a batch's buffer is
// the concatenation of its keys' values in key order. PushDeltas takes a
// delta per key instead (ParamStore::DeltaLength floats: AccumulateDelta).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/api/direct_row_cache.h"
#include "core/api/node_port.h"
#include "core/base/status.h"
#include "core/base/types.h"
#include "core/codec/message.h"
#include "core/metrics/node_metrics.h"
#include "core/runtime/runtime.h"
#include "core/sampling/sampling.h"
#include "core/store/param_store.h"

namespace augur {

class Worker {
 public:
  // `node`, `store`, `runtime` and `parker` outlive the worker.
  Worker(NodePort& node, ParamStore& store, Runtime& runtime, Parker& parker, WorkerId id,
         SamplingOptions sampling, uint64_t seed);
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // REQUIRES: out.size() == TotalLength(keys).
  Ticket Pull(std::span<const Key> keys, std::span<float> out);
  // Adds `updates` to the keys' values (one optimizer step per key).
  // REQUIRES: updates.size() == TotalLength(keys).
  Ticket Push(std::span<const Key> keys, std::span<const float> updates);
  // The same for updates summed per key before the push: deltas[...] holds
  // each key's delta (DeltaLength floats; optimizer.h, AccumulateDelta), so
  // that with AdaGrad the accumulator grows by the updates' summed squares,
  // as their separate steps would grow it. With kSum and kSgd a delta is the
  // summed update. REQUIRES: deltas.size() == TotalDeltaLength(keys).
  Ticket PushDeltas(std::span<const Key> keys, std::span<const float> deltas);
  // Overwrites the keys' values. REQUIRES: values.size() == TotalLength(keys).
  Ticket Set(std::span<const Key> keys, std::span<const float> values);

  bool IsDone(Ticket t);
  // The waits below return an error, at once, once the worker is cancelled
  // (Cancel): the operation did not complete, and the job should stop. The
  // node's stall watchdog watches them (and WaitSync's, not Barrier's): one
  // parked longer than NodeOptions::stall_timeout_seconds fails the run
  // (core/protocol/stall_watchdog.h), which cancels the waits.
  Status Wait(Ticket t);
  Status WaitAll();  // every operation this worker issued has completed

  // True once the runtime cancelled this worker's parker (Parker::Cancel: the
  // node is shutting down, e.g. a TCP node that lost a peer). Its waits then
  // return errors at once; buffers of incomplete operations are undefined.
  bool cancelled() const { return parker_.cancelled(); }

  // "This worker will access `keys` while its clock is in [start, end)."
  void Intent(std::span<const Key> keys, Clock start, Clock end);
  // Several signals at once: the node acts on them together, so the
  // messages they cause leave in as few frames as one signal's would.
  void Intents(std::span<const IntentSignal> signals);
  // False on a one-node cluster, where an intent has nothing to act on (it
  // is only counted): callers may skip computing the keys.
  bool UsesIntent() const;
  void AdvanceClock();
  Clock clock() const { return clock_; }

  // Sampling access (core/sampling/sampling.h): K keys from the application's
  // distribution, pulled with the node's sampling scheme (values_out null:
  // only the keys, for a caller with direct access).
  SampleHandle PrepareSample(uint32_t k, Clock start, Clock end);
  void PullSample(SampleHandle h, std::vector<Key>* keys_out, std::vector<float>* values_out);
  // Draws from the application's distribution by this worker's sampler so
  // far (the worker's own thread only).
  uint64_t sample_draws() const { return sampler_.draws(); }
  // Whether PullSample's values are read ahead of it (WorkerSampler::
  // ReadsValuesAhead): if not, a caller may take the keys alone and pull them itself.
  bool SampleReadsValuesAhead() const { return sampler_.ReadsValuesAhead(); }
  // Whether PullSample's keys are held here as it returns them (WorkerSampler::
  // KeysHeldAtPull): then a caller may use them in place (ResolveHeld).
  bool SampleKeysHeldAtPull() const { return sampler_.KeysHeldAtPull(); }
  // True when this node holds the key's main copy or a replica right now
  // (always on a one-node cluster, where a key is created on first touch).
  bool IsHeldLocally(Key key) const;

  // Direct access, on a one-node cluster only (DirectAccess()): rows are
  // used where they are, with the single-node baseline's contract (Hogwild).
  // ResolveDirect fills entries[i] with keys[i]'s row in the store (created
  // on first touch); the pointers stay valid for the run, since on one node
  // no key ever moves. Writes through them take no lock: concurrent updates
  // of one row by two workers of the node may interleave, as in Hogwild.
  // ApplyDirect applies entries[i]'s delta in `deltas` (DeltaLength floats
  // each, as PushDeltas) to it in place. Both count as local accesses. Pull/Push/Set keep
  // their exact contract on every node; nothing else changes.
  bool DirectAccess() const;
  // Changes whenever the store removes or replaces an entry: views resolved
  // before are stale then (on one node only a restore does it).
  uint64_t DirectMoves() const;
  // Counts accesses through views resolved earlier as local.
  void CountDirect(uint64_t accesses);
  void ResolveDirect(std::span<const Key> keys, std::vector<ParamStore::Entry>* entries);
  void ApplyDirect(std::span<const ParamStore::Entry> entries, std::span<const float> deltas);
  // The optimizer of the node's store (whether a delta carries squares).
  const OptimizerConfig& optimizer() const { return store_.optimizer(); }

  // The copy-free local path of one example's rows, on a cluster of any
  // size: what Pull, the example's maths and Push do, without the copies,
  // for keys held here (main copy or replica). A seqlock over the store's
  // moves (ParamStore::moves):
  //   ResolveHeld: if every key is held here right now, entries[i] views
  //     keys[i]'s entry, *since records the moves so far, and the reads are
  //     counted as local accesses; else false, nothing counted (the caller
  //     takes Pull/Push, which fetch the rows).
  //   Reads through the views take no lock (Hogwild, as DirectAccess): a
  //     concurrent push or replica refresh of the row may interleave.
  //   HeldUnmoved(since): true when no entry was removed or replaced since,
  //     so what was read were those keys' rows; false: resolve again (a row
  //     freed meanwhile may hold another key's values now).
  //   ApplyHeld: one optimizer step of updates[i] (Length floats) on keys[i]
  //     (entries[i] its view from ResolveHeld at `since`), under its stripe
  //     lock (ParamStore::UpdateResolved: no lookup while nothing moved; a
  //     replica's delta takes the step too); a key that left meanwhile takes
  //     Push (its slow path, completed by the next WaitAll or Barrier, as any
  //     push). Counts the writes. Writes never go through the views unlocked.
  bool ResolveHeld(std::span<const Key> keys, std::vector<ParamStore::Entry>* entries,
                   uint64_t* since);
  bool HeldUnmoved(uint64_t since) const;
  void ApplyHeld(std::span<const Key> keys, std::span<const ParamStore::Entry> entries,
                 uint64_t since, std::span<const float* const> updates);

  // The copy-free local path of a pull, an SGD step and its push, for two
  // keys held here (main copy or replica), on a cluster of any size. Under
  // the keys' stripe locks, step(a_value, b_value) changes the two rows in
  // place as a plain SGD step of `learning_rate`; the change then reaches the
  // store as that step's push would (BatchRows::PushSgdSteps: the gradient
  // (before - after) / learning_rate through ParamStore::ApplyPush, so the
  // store's optimizer and a replica's delta see it). Counts two local
  // accesses. False, nothing run and nothing counted, unless both keys are
  // held here right now: the caller then takes Pull/Push, which fetch them.
  // REQUIRES: a != b. step must not call into the runtime.
  template <typename Step>
  bool StepHeldPair(Key a, Key b, float learning_rate, Step&& step) {
    const bool held = store_.WithPair(a, b, [&](ParamStore::Entry& ea, ParamStore::Entry& eb) {
      const bool keep_a = StepNeedsPush(ea, learning_rate);
      const bool keep_b = StepNeedsPush(eb, learning_rate);
      step_before_.resize(size_t{ea.length} + eb.length);
      if (keep_a) std::copy_n(ea.value, ea.length, step_before_.data());
      if (keep_b) std::copy_n(eb.value, eb.length, step_before_.data() + ea.length);
      step(ea.value, eb.value);
      if (keep_a) PushStep(ea, step_before_.data(), learning_rate);
      if (keep_b) PushStep(eb, step_before_.data() + ea.length, learning_rate);
    });
    if (held) CountHeldPair();
    return held;
  }

  // A hint before StepHeldPair on `key` a few ratings later: starts loading
  // the store's index line for it (ParamStore::Prefetch). No effect on
  // contents or counters.
  void PrefetchHeld(Key key) const { store_.Prefetch(key); }

  // Flushes every replica delta of this node to its main copy and refreshes
  // the replicas (one sync round), then waits for it (REFERENCE §3).
  Status WaitSync();

  // Consistent snapshots (checkpoints). Each acts for the whole node; call
  // from one worker per node, between global barriers, with no worker of
  // any node accessing parameters meanwhile.
  // PauseActions(true): the node starts no new relocation or replica request
  // (intents stay pending); false resumes and acts on what is pending.
  void PauseActions(bool paused);
  // Parks until no key is on its way to this node. Once every node paused
  // and returned from this, no row is in transfer anywhere.
  Status WaitNothingIncoming();
  // Copies every main copy held here: keys[i]'s row (value, then optimizer
  // state; ParamStore::RowLength floats) is rows[i].
  void CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) const;
  // REQUIRES: before any access of the run; keys homed at this node.
  // Installs main copies from rows in CopyMainRows' layout.
  void InstallMainRows(std::span<const Key> keys, std::span<const float> rows);

  // Global barrier over all workers of all nodes. Completes this worker's
  // outstanding operations first, so after it every earlier push is applied.
  Status Barrier();

  // Charges modelled compute time (see Runtime::Compute).
  void Compute(double seconds);
  double Now();
  // This node's CPU seconds so far (Runtime::CpuSeconds; negative: unknown).
  double NodeCpuSeconds();

  WorkerId id() const { return id_; }
  NodeId node_id() const { return node_id_; }
  uint32_t num_nodes() const { return num_nodes_; }
  size_t TotalLength(std::span<const Key> keys) const;
  size_t TotalDeltaLength(std::span<const Key> keys) const;  // PushDeltas' floats

  // This node's counters so far (all workers and the protocol side).
  MetricsSnapshot NodeMetrics() const;

  // Adds this worker's counters and seconds (below) to *s. Safe from any thread.
  void AddCountsTo(MetricsSnapshot* s) const;

  // Safe to read from any thread, like the times below.
  uint64_t local_accesses() const { return local_accesses_.load(std::memory_order_relaxed); }
  uint64_t remote_accesses() const { return remote_accesses_.load(std::memory_order_relaxed); }
  // Runtime seconds this worker spent parked: for its own operations (pulls,
  // pushes, WaitSync) and at barriers (waiting for slower workers).
  // Safe to read from any thread (another worker takes the node's snapshot).
  double wait_seconds() const { return wait_seconds_.load(std::memory_order_relaxed); }
  double barrier_seconds() const { return barrier_seconds_.load(std::memory_order_relaxed); }

 private:
  // The sampler's view of this worker (sampling.h).
  class SamplerAccess final : public SampleAccess {
   public:
    explicit SamplerAccess(Worker& w) : w_(w) {}
    Clock clock() const override { return w_.clock(); }
    void Intent(std::span<const Key> keys, Clock start, Clock end) override {
      w_.Intent(keys, start, end);
    }
    Ticket Pull(std::span<const Key> keys, std::span<float> out) override {
      return w_.Pull(keys, out);
    }
    Status Wait(Ticket t) override { return w_.Wait(t); }

   private:
    Worker& w_;
  };
  // StepHeldPair's parts. StepNeedsPush: false where the step taken in
  // place already is what its push would leave (a main copy whose store
  // applies plain SGD at the same rate). PushStep: turns the step taken on
  // e (before: its value before) into that push. Both under e's lock.
  bool StepNeedsPush(const ParamStore::Entry& e, float learning_rate) const;
  void PushStep(const ParamStore::Entry& e, const float* before, float learning_rate);
  void CountHeldPair();
  // Hot path for every key, slow path for the ones the store did not serve.
  Ticket Access(MessageType type, std::span<const Key> keys, const float* in, std::span<float> out);
  // Parks until done() holds (re-checked after every wake-up); adds the
  // time parked to *seconds. An error once cancelled. `op`: what the node's
  // stall watchdog watches meanwhile (NodePort::SetWaiting).
  template <typename Done>
  Status ParkUntil(Done done, uint64_t op, std::atomic<double>* seconds);

  NodePort& node_;
  ParamStore& store_;
  Runtime& runtime_;
  Parker& parker_;
  const WorkerId id_;
  const NodeId node_id_;
  const uint32_t num_nodes_;
  const bool solo_;  // a one-node cluster: keys created on first touch, direct access
  Clock clock_ = 0;
  std::atomic<uint64_t> local_accesses_{0};  // written by this worker only
  std::atomic<uint64_t> remote_accesses_{0};
  std::atomic<double> wait_seconds_{0};  // written by this worker only
  std::atomic<double> barrier_seconds_{0};
  std::vector<uint32_t> offsets_;  // float offset of each key of the current batch
  SamplerAccess sampler_access_{*this};
  WorkerSampler sampler_;
  ParamStore::BatchScratch scratch_;
  // Direct access: views resolved so far (valid while the store's moves()
  // stays direct_moves_), and ResolveDirect's scratch.
  DirectRowCache direct_cache_;  // key -> its row (value, then state)
  uint64_t direct_moves_ = 0;
  std::vector<uint32_t> direct_misses_;
  std::vector<Key> direct_miss_keys_;
  std::vector<ParamStore::Entry> direct_miss_entries_;
  // StepHeldPair's rows before the step, and PushStep's gradient and its delta.
  std::vector<float> step_before_;
  std::vector<float> step_grad_;
  std::vector<float> step_delta_;
  std::vector<float> push_deltas_;   // Push: its updates as deltas (AdaGrad)
  std::vector<Key> held_left_keys_;  // ApplyHeld: the keys that left, and their updates
  std::vector<float> held_left_updates_;
};

}  // namespace augur

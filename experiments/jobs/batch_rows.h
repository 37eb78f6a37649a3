// BatchRows: the parameter rows of one mini-batch, pulled from the PS into a
// local buffer, updated or differentiated locally, and pushed back.
//
// Collect keys with Add(), which deduplicates them as they come (each
// distinct key gets the next slot, BatchIndex), then Pull() pulls their
// values (one Pull, waited for). Row(key) is the local copy, Grad(key) a
// zeroed gradient row; RowAt/GradAt take the slot Add() returned and skip
// the lookup. AddGradient(slot, g) adds one example's gradient of a key;
// PushGradients() pushes the batch's sums as deltas (Worker::PushDeltas:
// with AdaGrad the squares of the examples' gradients are summed beside
// them, so the store's accumulator grows as the examples' own steps would
// grow it, not by the square of their sum; on one node each example's
// gradient is stepped into the row at once, as the baseline does). Gradients
// added through
// Grad()/GradAt() directly are pushed as one update each (their squares
// taken of the sum). PushSgdSteps(lr) pushes (pulled - local) / lr,
// i.e. exactly the local SGD steps taken on Row() as a gradient for the
// server-side SGD optimizer. Every key has the same row length.
// On a one-node cluster (Worker::DirectAccess) nothing is copied: Row() is
// the row in the store itself, PushGradients applies the optimizer to it in
// place, and PushSgdSteps has nothing left to push (the steps were taken on
// the rows), which is the single-node baseline's Hogwild contract.
// Pushes are not waited for batch by batch: up to kPushesInFlight of them
// stay in flight (Worker::Push copies its input), so a batch whose push has
// remote keys does not wait a round trip before the next one pulls. The
// next pull of a key pushed remotely may therefore not see that push yet
// (asynchronous SGD, as through a replica); Finish waits for them all.
// Ownership: buffers owned here. Threading: one worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "core/api/worker.h"
#include "core/base/types.h"
#include "experiments/jobs/batch_index.h"

namespace augur {

class BatchRows {
 public:
  explicit BatchRows(uint32_t row_length) : row_(row_length), stride_(row_length) {}

  void Clear() {
    keys_.clear();
    added_.clear();
    index_.Clear();
  }
  // The key's slot in this batch (the same for a key added twice).
  uint32_t Add(Key key) {
    const auto [slot, added] = index_.Insert(key);
    if (added) keys_.push_back(key);
    added_.push_back(slot);
    return slot;
  }
  // The slot each Add() since Clear() returned, in call order: a caller that
  // adds its items' keys in a fixed pattern finds their rows (RowAt) without
  // a lookup.
  const std::vector<uint32_t>& added_slots() const { return added_; }
  // Pulls the rows of the added keys (waits). Zeroes the gradients, unless
  // keep_original (the rows as pulled are kept for PushSgdSteps, which
  // writes every gradient row itself; Grad() is then not for the caller).
  void Pull(Worker& w, bool keep_original);
  // The same with the keys of a sample (e.g. Worker::PullSample): afterwards
  // the sampled keys are rows of this batch too (pushed with it). Unless the
  // sampler reads its values ahead (Worker::SampleReadsValuesAhead), sample
  // is called first with `values` null and returns keys only; they join the
  // batch's keys, and the one pull fetches each distinct key once (a sample
  // repeats its frequent keys: wv's negatives, about half of them).
  // Otherwise sample(&keys, &values) runs while the ordinary pull is in
  // flight, and a sampled key not pulled ordinarily is valued from its first
  // occurrence in `values`. sample's keys have row_length floats each.
  template <typename SampleFn>
  void Pull(Worker& w, bool keep_original, SampleFn&& sample) {
    sampled_values_.clear();
    if (w.DirectAccess() || !w.SampleReadsValuesAhead()) {
      sample(&sampled_keys_, nullptr);
      AddSampledKeys();
      EndPull(w, BeginPull(w), keep_original);
      return;
    }
    const Ticket t = BeginPull(w);
    sample(&sampled_keys_, &sampled_values_);
    w.Wait(t);  // the new rows go after the pulled ones, in the same buffer
    AddSampledKeys(&sampled_values_);
    EndPull(w, Ticket{}, keep_original);
  }
  // The sampled keys of the last Pull, in the order `sample` returned them,
  // and the slot of each (as added_slots() for the added keys).
  const std::vector<Key>& sampled_keys() const { return sampled_keys_; }
  const std::vector<uint32_t>& sampled_slots() const { return sampled_slots_; }
  // By slot: the added keys, then the sampled keys not among them.
  const std::vector<Key>& keys() const { return keys_; }
  bool empty() const { return keys_.empty(); }

  float* Row(Key key) { return RowAt(Slot(key)); }
  float* Grad(Key key) { return GradAt(Slot(key)); }
  float* RowAt(uint32_t slot) {
    return direct_ ? direct_rows_[slot].value : &values_[size_t{slot} * row_];
  }
  float* GradAt(uint32_t slot) {
    float* g = &grads_[size_t{slot} * stride_];
    if (MarkGrad(slot)) std::fill_n(g, stride_, 0.0f);
    squares_stale_ = true;
    return g;
  }
  // Adds one example's gradient g (row_length floats) of the key in `slot`:
  // to its sum and, with AdaGrad, its squares to the sum of squares. With
  // direct access (one node) it is applied to the store's row at once
  // instead, one optimizer step per example as the single-node baseline
  // takes them: the batch's later examples read the stepped row.
  void AddGradient(uint32_t slot, const float* g) {
    if (direct_) {
      const ParamStore::Entry& e = direct_rows_[slot];
      ApplyUpdate(*optimizer_, e.value, e.state, g, row_);
      return;
    }
    // The buffer is not zeroed per batch: a slot's first gradient is
    // written, the later ones added (PushGradients zeroes the slots that got none).
    float* delta = &grads_[size_t{slot} * stride_];
    if (MarkGrad(slot)) {
      UpdateToDelta(*optimizer_, g, row_, delta);
    } else {
      AccumulateDelta(*optimizer_, g, row_, delta);
    }
  }

  void PushGradients(Worker& w);
  void PushSgdSteps(Worker& w, float learning_rate);
  // Waits for every push in flight (before a barrier, or the end).
  void Finish(Worker& w);
  static constexpr size_t kPushesInFlight = 4;

 private:
  uint32_t Slot(Key key) const;
  Ticket BeginPull(Worker& w);
  // The sampled keys' slots; the ones not added yet become rows of the batch,
  // valued, if `values` is given (row_length floats per sampled key), from
  // the key's first occurrence there, appended after the pulled rows.
  void AddSampledKeys(const std::vector<float>* values = nullptr);
  // Waits for t (direct access: resolves the rows) and starts the gradients.
  void EndPull(Worker& w, Ticket t, bool keep_original);
  // Sizes the gradient buffer for this batch's keys, none written yet.
  void StartGrads();

  uint32_t row_;
  // Floats per slot of grads_: row_, or with AdaGrad 2 * row_ (the sum of
  // the gradients, then of their squares: a delta, optimizer.h). Set by Pull.
  uint32_t stride_;
  const OptimizerConfig* optimizer_ = nullptr;  // the worker's store's, set by Pull
  bool squares_stale_ = false;                  // GradAt handed out since the last Pull
  // Marks the slot's gradient row as written this batch; true the first time.
  bool MarkGrad(uint32_t slot) {
    if (has_grad_[slot] != 0) return false;
    has_grad_[slot] = 1;
    ++grads_written_;
    return true;
  }
  std::vector<Key> keys_;        // by slot
  std::vector<uint32_t> added_;  // Add()'s results, in call order
  BatchIndex index_;
  bool direct_ = false;                         // this batch uses the store's rows
  std::vector<ParamStore::Entry> direct_rows_;  // by slot, when direct_
  std::vector<float> values_, original_, grads_;
  // Per slot, whether grads_ holds its gradient this batch (GradAt,
  // AddGradient), and how many do.
  std::vector<uint8_t> has_grad_;
  size_t grads_written_ = 0;
  std::vector<Key> sampled_keys_;
  std::vector<uint32_t> sampled_slots_;
  std::vector<float> sampled_values_;
  // Pushes not yet known complete, oldest first (at most kPushesInFlight).
  std::deque<Ticket> pushes_;
  void Issued(Worker& w, Ticket t);
};

// Pulls `count` keys key_of(0..count-1) into a dense table (chunked pulls).
template <typename KeyOf>
std::vector<float> PullTable(Worker& w, uint64_t count, uint32_t row_length, KeyOf&& key_of) {
  constexpr uint64_t kChunk = 4096;
  std::vector<float> table(count * row_length);
  std::vector<Key> keys;
  for (uint64_t at = 0; at < count; at += kChunk) {
    const uint64_t n = std::min(kChunk, count - at);
    keys.resize(n);
    for (uint64_t i = 0; i < n; ++i) keys[i] = key_of(at + i);
    w.Wait(w.Pull(keys, std::span<float>(&table[at * row_length], n * row_length)));
  }
  return table;
}

}  // namespace augur

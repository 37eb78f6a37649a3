// DenseRows: one worker's table from a dense id range (word, entity,
// relation; id i is key base + i) to that id's row in the store, for direct
// access on a one-node cluster (Worker::ResolveDirect). The training step
// then finds a row by index, as the single-node baseline does, instead of by
// hashing its key.
// Rows are resolved on first use (Resolve, once per batch) and kept while
// the store moves nothing (Worker::DirectMoves); each Resolve counts its ids
// as local accesses.
// Not thread-safe: one per worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/api/worker.h"

namespace augur {

class DenseRows {
 public:
  DenseRows(uint64_t count, Key base) : base_(base), rows_(count, nullptr) {}

  // Makes Row(id) valid for every id of `ids`. REQUIRES: ids < count.
  void Resolve(Worker& w, std::span<const uint32_t> ids) {
    if (w.DirectMoves() != moves_) {
      std::fill(rows_.begin(), rows_.end(), nullptr);
      moves_ = w.DirectMoves();
    }
    missing_.clear();
    for (uint32_t id : ids) {
      if (rows_[id] != nullptr) continue;
      rows_[id] = kPending;  // once in the miss list, however often it repeats
      missing_.push_back(base_ + id);
      missing_ids_.push_back(id);
    }
    if (!missing_.empty()) {
      w.ResolveDirect(missing_, &entries_);
      for (size_t j = 0; j < missing_.size(); ++j) rows_[missing_ids_[j]] = entries_[j].value;
      if (ids.size() > missing_.size()) w.CountDirect(ids.size() - missing_.size());
    } else {
      w.CountDirect(ids.size());
    }
    missing_ids_.clear();
  }
  float* Row(uint32_t id) const { return rows_[id]; }

 private:
  static inline float* const kPending = reinterpret_cast<float*>(alignof(float));
  Key base_;
  std::vector<float*> rows_;
  uint64_t moves_ = 0;
  std::vector<Key> missing_;
  std::vector<uint32_t> missing_ids_;
  std::vector<ParamStore::Entry> entries_;
};

}  // namespace augur

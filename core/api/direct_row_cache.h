// DirectRowCache: a one-node worker's map from key to its row in the store
// (Worker::ResolveDirect), so a batch's rows are found without the store's
// stripe locks and hash probes.
//
// A key inside one of the layout's ranges (the dense id spaces of real
// workloads: entities, relations, words, matrix rows) is found by index in
// a table of row pointers for its range: one load from 8 bytes per key,
// where a hash map's bucket is a cache miss in a table several times that
// size. Keys outside every range, and ranges of more than kMaxDenseKeys
// keys, go to a hash map. A range's table is allocated on its first insert.
// Clear() forgets every row (the store moved one). Not thread-safe: one per
// worker.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/dense_ranges.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/flat_key_map.h"

namespace augur {

class DirectRowCache {
 public:
  // Larger ranges fall back to the hash map: a table costs at most 8 MB of
  // pointers per worker, whatever the layout (the workloads' ranges: 40k-107k
  // entities, words and matrix rows).
  static constexpr Key kMaxDenseKeys = Key{1} << 20;

  explicit DirectRowCache(const ValueLayout& layout)
      : ranges_(layout, kMaxDenseKeys), rows_(ranges_.size()) {}

  // The key's row, or nullptr if not cached.
  float* Find(Key key) const {
    if (const DenseRanges::Place p = ranges_.Locate(key); p.range != DenseRanges::kNone) {
      const std::vector<float*>& rows = rows_[p.range];
      return p.offset < rows.size() ? rows[p.offset] : nullptr;
    }
    float* const* row = sparse_.Find(key);
    return row == nullptr ? nullptr : *row;
  }

  void Insert(Key key, float* row) {
    if (const DenseRanges::Place p = ranges_.Locate(key); p.range != DenseRanges::kNone) {
      std::vector<float*>& rows = rows_[p.range];
      if (rows.empty()) rows.assign(ranges_.keys(p.range), nullptr);
      rows[p.offset] = row;
      return;
    }
    *sparse_.Insert(key, row).first = row;
  }

  void Clear() {
    for (std::vector<float*>& rows : rows_) rows.clear();
    sparse_ = FlatKeyMap<float*>();
  }

 private:
  DenseRanges ranges_;
  std::vector<std::vector<float*>> rows_;  // per range, by offset; empty until its first insert
  FlatKeyMap<float*> sparse_;
};

}  // namespace augur

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
#include <utility>
#include <vector>

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

  explicit DirectRowCache(const ValueLayout& layout) {
    for (const ValueLayout::Range& r : layout.ranges())
      if (r.end - r.begin <= kMaxDenseKeys) dense_.push_back(Dense{r.begin, r.end, {}});
  }

  // The key's row, or nullptr if not cached.
  float* Find(Key key) const {
    if (const Dense* d = DenseOf(key)) {
      const size_t i = key - d->begin;
      return i < d->rows.size() ? d->rows[i] : nullptr;
    }
    float* const* row = sparse_.Find(key);
    return row == nullptr ? nullptr : *row;
  }

  void Insert(Key key, float* row) {
    if (Dense* d = DenseOf(key)) {
      if (d->rows.empty()) d->rows.assign(d->end - d->begin, nullptr);
      d->rows[key - d->begin] = row;
      return;
    }
    *sparse_.Insert(key, row).first = row;
  }

  void Clear() {
    for (Dense& d : dense_) d.rows.clear();
    sparse_ = FlatKeyMap<float*>();
  }

 private:
  struct Dense {
    Key begin, end;
    std::vector<float*> rows;  // by key - begin; empty until the first insert
  };
  const Dense* DenseOf(Key key) const {
    for (const Dense& d : dense_)  // few ranges: linear, as ValueLayout::Length
      if (key >= d.begin && key < d.end) return &d;
    return nullptr;
  }
  Dense* DenseOf(Key key) { return const_cast<Dense*>(std::as_const(*this).DenseOf(key)); }

  std::vector<Dense> dense_;
  FlatKeyMap<float*> sparse_;
};

}  // namespace augur

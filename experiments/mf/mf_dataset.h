// MfDataset: a sparse rating matrix (train/test cells), its Zipf-skewed
// generator and its on-disk format.
//
// Generator: rows and columns are drawn from Zipf(skew) over their index
// (index 0 is the most popular); a repeated cell redraws its column uniformly
// (bounded attempts), so exactly `nnz` distinct cells come out. A cell's value
// is the dot product of hidden rank-`true_rank` factors (N(0, 1/sqrt(rank))
// per element, deterministic per row/column) plus N(0, noise) noise; a
// seeded `test_fraction` of cells is held out.
// Directory format (`augur data mf`; see experiments/data/README.md):
//   train.tsv, test.tsv   row<TAB>col<TAB>value
//   meta.json             format augur-mf-1, rows, cols, counts, skew, seed (rows and
//                         cols are required; a format or train/test count, where given,
//                         must match: the reader refuses another format or counts that
//                         differ from the files)
// Threading: plain values.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

struct Rating {
  uint32_t row = 0;
  uint32_t col = 0;
  float value = 0;
};

struct MfDataset {
  uint32_t rows = 0;
  uint32_t cols = 0;
  std::vector<Rating> train, test;
};

struct MfGenOptions {
  uint32_t rows = 10000;
  uint32_t cols = 2000;
  uint64_t nnz = 500000;
  double skew = 1.1;
  uint32_t true_rank = 8;
  double noise = 0.1;
  double test_fraction = 0.1;
  uint64_t seed = 1;
};

// Error when the options cannot be met (e.g. nnz > rows*cols/2).
Result<MfDataset> GenerateMf(const MfGenOptions& options);

Status WriteMfDataset(const MfDataset& data, const MfGenOptions& options, const std::string& dir);
// Writes train.tsv, test.tsv and `meta` (which gets rows and cols) into dir.
Status WriteMfDataset(const MfDataset& data, nlohmann::json meta, const std::string& dir);
Result<MfDataset> ReadMfDataset(const std::string& dir);

}  // namespace augur

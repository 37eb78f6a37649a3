// CtrGenerator: a Criteo-shaped click-through data set with a planted logistic truth.
//
// Each row has a label, 13 dense count features and 26 categorical ids
// (feature f has cardinality[f] ids, drawn Zipf(skew): id 0 is the most
// frequent). The label is Bernoulli(sigmoid(bias + sum_d w_d log1p(x_d) +
// sum_f u_f[id_f])), with w and u seeded normals, so a model can learn it
// and the best test AUC is that of the truth (recorded as `truth_auc`).
// Written by WriteCtrDataset as raw little-endian arrays plus meta.json
// (format in experiments/data/README.md). Pure apart from the files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

struct CtrOptions {
  uint64_t rows = 200000;  // train + test
  double test_fraction = 0.1;
  uint32_t max_cardinality = 100000;  // feature 25's ids; feature 0 has 4, geometric between
  double skew = 1.1;                  // Zipf exponent of every feature's ids
  uint64_t seed = 1;
};

inline constexpr uint32_t kCtrDense = 13;
inline constexpr uint32_t kCtrCategorical = 26;

// Checks the options; error names the flag.
Status ValidateCtrOptions(const CtrOptions& o);
// The ids per categorical feature.
std::vector<uint32_t> CtrCardinalities(const CtrOptions& o);
// Generates and writes DIR/{train,test}.{labels.u8,dense.f32,cats.u32} and DIR/meta.json.
Status WriteCtrDataset(const CtrOptions& o, const std::string& dir);

}  // namespace augur

// Options of the real workloads (kge, wv, mf): one plain struct each, part of
// RunConfig and shared by the PS jobs and the single-node baselines.
// Plain values; validated by RunConfig::Validate().
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/base/status.h"

namespace augur {

// Knowledge-graph embeddings: ComplEx, negative sampling, AdaGrad.
struct KgeOptions {
  uint32_t dim = 32;        // complex dimension d: rows have 2*d floats
  uint32_t negatives = 10;  // per true triple, half corrupt the head, half the tail
  // Triples per mini-batch (per clock). 16 brings a simulated 8 x 4
  // cluster's test MRR closer to the baseline's but halves its speed-up;
  // docs/measurements/2026-12-03-kge-batch-size.md.
  uint32_t batch_size = 128;
  float learning_rate = 0.1f;    // AdaGrad
  float init_scale = 0.1f;       // initial values uniform in [-s, s]
  uint32_t eval_triples = 1000;  // test (and valid) triples ranked at the end; 0 = all
  double compute_seconds_per_sample = 2.5e-6;  // modelled compute per triple (loopback/sim)
};

// Word vectors: skip-gram with negative sampling, SGD.
struct WvOptions {
  uint32_t dim = 32;
  uint32_t negatives = 5;
  uint32_t window = 5;       // maximal; each position draws its window in [1, window]
  uint32_t batch_size = 16;  // sentences per mini-batch
  float learning_rate = 0.025f;
  uint32_t min_count = 2;          // rarer words are dropped
  double subsample = 1e-3;         // word2vec's frequent-word subsampling threshold (0: off)
  double heldout_fraction = 0.05;  // sentences held out for the loss
  double compute_seconds_per_sample = 1.0e-6;  // modelled compute per center word
};

// Matrix factorization: SGD on squared error. Without --data, the matrix is
// generated in memory from the gen_* fields.
struct MfOptions {
  uint32_t rank = 32;
  uint32_t batch_size = 256;  // ratings per mini-batch
  float learning_rate = 0.02f;
  float reg = 0.01f;
  float init_scale = 0.1f;
  uint32_t gen_rows = 10000;
  uint32_t gen_cols = 2000;
  uint64_t gen_nnz = 500000;
  double gen_skew = 1.1;
  double compute_seconds_per_sample = 0.1e-6;  // modelled compute per rating
};

Status ValidateWorkloadOptions(const KgeOptions& kge, const WvOptions& wv, const MfOptions& mf);
nlohmann::json ToJson(const KgeOptions& o);
nlohmann::json ToJson(const WvOptions& o);
nlohmann::json ToJson(const MfOptions& o);

}  // namespace augur

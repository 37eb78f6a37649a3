// MfTask: the matrix-factorization workload (REFERENCE §5): SGD on a sparse
// Zipf-skewed rating matrix, shared by the PS job (mf_job) and the
// single-node baseline (mf_hogwild).
//
// Keys: row factors at [0, R), column factors at [kColumnKeyBase, +C), rank
// floats each. One example = one training rating. Quality: test RMSE.
// Immutable after Load(); every method is safe to call concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>

#include "core/base/rng.h"
#include "core/base/status.h"
#include "core/base/types.h"
#include "core/base/value_layout.h"
#include "core/store/optimizer.h"
#include "experiments/config/run_config.h"
#include "experiments/mf/mf_dataset.h"
#include "experiments/mf/mf_model.h"
#include "experiments/partition/graph_partitioner.h"

namespace augur {

struct QualityFloor;

class MfTask {
 public:
  static constexpr Key kColumnKeyBase = Key{1} << 40;

  // Reads --data, or generates the matrix from the mf.gen_* options.
  static Result<std::unique_ptr<MfTask>> Load(const RunConfig& config);
  MfTask(MfDataset data, MfOptions options, uint64_t seed);

  const MfDataset& data() const { return data_; }
  const MfOptions& options() const { return options_; }
  uint32_t rank() const { return options_.rank; }
  uint32_t row_length() const { return options_.rank; }  // floats per row
  // Unknown before training (it depends on the ratings): 0, the first loss
  // alone is DivergenceGuard's reference (and Untrained() the quality floor).
  double UntrainedLoss() const { return 0; }
  static Key RowKey(uint32_t r) { return r; }
  static Key ColumnKey(uint32_t c) { return kColumnKeyBase + c; }

  ValueLayout Layout() const;
  OptimizerConfig Optimizer() const;  // SGD
  void InitRow(Key key, std::span<float> row) const;
  // Every row's and column's factors as InitRow makes them: R x rank, C x rank.
  void InitTables(std::vector<float>* rows, std::vector<float>* cols) const;
  ItemKeys PartitionKeys() const;  // rating -> {row, R + col}

  // One SGD step on rating i, rows updated in place; returns the squared error.
  float TrainRating(const Rating& x, float* u, float* v) const {
    thread_local std::vector<float> gu, gv;
    gu.resize(rank());
    gv.resize(rank());
    const float err = MfGradients(x.value, u, v, rank(), options_.reg, gu.data(), gv.data());
    const float lr = options_.learning_rate;
    for (uint32_t k = 0; k < rank(); ++k) {
      u[k] -= lr * gu[k];
      v[k] -= lr * gv[k];
    }
    return err * err;
  }

  // Test RMSE (and the RMSE of predicting the training mean, for scale).
  // rows/cols: R and C rows of rank floats.
  nlohmann::json Evaluate(const float* rows, const float* cols) const;
  // Evaluate of the initial rows (InitRow): the quality no trained model may
  // be worse than (jobs/quality_floor.h), by its test RMSE.
  QualityFloor Untrained() const;

 private:
  MfDataset data_;
  MfOptions options_;
  uint64_t seed_;
};

}  // namespace augur

#include "experiments/mf/mf_task.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/base/check.h"
#include "core/base/huge_pages.h"
#include "experiments/jobs/quality_floor.h"
#include "experiments/models/task_rows.h"

namespace augur {

Result<std::unique_ptr<MfTask>> MfTask::Load(const RunConfig& config) {
  if (!config.data_dir.empty()) {
    Result<MfDataset> d = ReadMfDataset(config.data_dir);
    if (!d.ok()) return d.status();
    if (config.evaluate && d->test.empty())
      return Status::Error(config.data_dir +
                           ": no test ratings, so the test RMSE cannot be measured (import it "
                           "with a test share, or train with --no-eval)");
    return std::make_unique<MfTask>(std::move(*d), config.mf, config.seed);
  }
  MfGenOptions g;
  g.rows = config.mf.gen_rows;
  g.cols = config.mf.gen_cols;
  g.nnz = config.mf.gen_nnz;
  g.skew = config.mf.gen_skew;
  g.seed = config.seed;
  Result<MfDataset> d = GenerateMf(g);
  if (!d.ok()) return d.status();
  return std::make_unique<MfTask>(std::move(*d), config.mf, config.seed);
}

MfTask::MfTask(MfDataset data, MfOptions options, uint64_t seed)
    : data_(std::move(data)), options_(options), seed_(seed) {}

ValueLayout MfTask::Layout() const {
  return TwoRangeLayout("mf", rank(), data_.rows, kColumnKeyBase, data_.cols);
}

OptimizerConfig MfTask::Optimizer() const {
  return TaskOptimizer(OptimizerKind::kSgd, options_.learning_rate);
}

void MfTask::InitRow(Key key, std::span<float> row) const {
  InitUniformRow(seed_, key, options_.init_scale, row);
}

void MfTask::InitTables(std::vector<float>* rows, std::vector<float>* cols) const {
  const uint32_t k = rank();
  // On huge pages, as the store's rows (core/store/chunk_pool.h).
  AssignOnHugePages(rows, size_t{data_.rows} * k, 0.0f);
  AssignOnHugePages(cols, size_t{data_.cols} * k, 0.0f);
  for (uint32_t r = 0; r < data_.rows; ++r)
    InitRow(RowKey(r), std::span<float>(rows->data() + size_t{r} * k, k));
  for (uint32_t c = 0; c < data_.cols; ++c)
    InitRow(ColumnKey(c), std::span<float>(cols->data() + size_t{c} * k, k));
}

QualityFloor MfTask::Untrained() const {
  std::vector<float> rows, cols;
  InitTables(&rows, &cols);
  return {"test_rmse", Evaluate(rows.data(), cols.data())};
}

ItemKeys MfTask::PartitionKeys() const {
  ItemKeys items;
  items.num_keys = data_.rows + data_.cols;
  items.keys.reserve(2 * data_.train.size());
  items.end.reserve(data_.train.size());
  for (const Rating& x : data_.train) items.Add({x.row, data_.rows + x.col});
  return items;
}

nlohmann::json MfTask::Evaluate(const float* rows, const float* cols) const {
  double mean = 0;
  for (const Rating& x : data_.train) mean += x.value;
  mean /= static_cast<double>(std::max<size_t>(1, data_.train.size()));
  double se = 0, se_mean = 0;
  for (const Rating& x : data_.test) {
    const double p =
        MfPredict(rows + size_t{x.row} * rank(), cols + size_t{x.col} * rank(), rank());
    se += (x.value - p) * (x.value - p);
    se_mean += (x.value - mean) * (x.value - mean);
  }
  const double n = static_cast<double>(std::max<size_t>(1, data_.test.size()));
  return {{"test_rmse", std::sqrt(se / n)},
          {"test_rmse_of_mean", std::sqrt(se_mean / n)},
          {"test_ratings", data_.test.size()}};
}

}  // namespace augur

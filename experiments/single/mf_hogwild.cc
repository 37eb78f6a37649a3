#include "experiments/single/mf_hogwild.h"

#include <cmath>

#include "experiments/jobs/divergence_guard.h"
#include "experiments/partition/work_split.h"
#include "experiments/single/hogwild.h"

namespace augur {

Result<RunResult> RunMfSingle(const RunConfig& config, const MfTask& task) {
  const auto wall_start = std::chrono::steady_clock::now();
  const MfDataset& data = task.data();
  const uint32_t k = task.rank();
  std::vector<float> rows(size_t{data.rows} * k), cols(size_t{data.cols} * k);
  for (uint32_t r = 0; r < data.rows; ++r)
    task.InitRow(MfTask::RowKey(r), std::span<float>(&rows[size_t{r} * k], k));
  for (uint32_t c = 0; c < data.cols; ++c)
    task.InitRow(MfTask::ColumnKey(c), std::span<float>(&cols[size_t{c} * k], k));
  const uint32_t threads = config.workers;
  Result<std::vector<std::vector<uint32_t>>> split =
      SplitWork(task.PartitionKeys(), threads,
                ResolvePartition(config.partition, config.workload, false), config.seed);
  if (!split.ok()) return split.status();
  const std::vector<std::vector<uint32_t>>& mine = *split;

  RunResult result;
  result.backend = "single";
  nlohmann::json losses = nlohmann::json::array();
  nlohmann::json mse = nlohmann::json::array();          // as the PS job's train_loss_per_epoch
  nlohmann::json cpu_seconds = nlohmann::json::array();  // per epoch, summed over threads
  DivergenceGuard guard;  // the epochs' mean training loss (jobs/divergence_guard.h)
  for (uint32_t epoch = 0; epoch < config.epochs; ++epoch) {
    std::vector<double> se(threads, 0.0);
    const auto start = std::chrono::steady_clock::now();
    const double cpu = RunThreads(threads, [&](uint32_t t) {
      double sum = 0;
      for (uint32_t i : mine[t]) {
        const Rating& x = data.train[i];
        sum += task.TrainRating(x, &rows[size_t{x.row} * k], &cols[size_t{x.col} * k]);
      }
      se[t] = sum;
    });
    result.epoch_seconds.push_back(SecondsSince(start));
    cpu_seconds.push_back(cpu);
    double total = 0;
    for (double s : se) total += s;
    mse.push_back(total / static_cast<double>(data.train.size()));
    losses.push_back(std::sqrt(mse.back().get<double>()));
    if (!guard.Observe(epoch, mse.back().get<double>())) break;  // diverged: stop
  }
  for (double s : result.epoch_seconds) result.total_seconds += s;
  result.extra["epoch_cpu_seconds"] = cpu_seconds;
  result.samples = uint64_t{result.epoch_seconds.size()} * data.train.size();
  result.extra["train_rmse_per_epoch"] = losses;
  result.extra["train_loss_per_epoch"] = mse;
  result.extra["diverged"] = guard.diverged();
  if (guard.diverged()) {
    result.extra["divergence"] = guard.Message() + " (mean training loss of the epoch)";
  } else {  // a diverged model is not evaluated
    const auto eval_start = std::chrono::steady_clock::now();
    result.extra["quality"] = task.Evaluate(rows.data(), cols.data());
    result.extra["eval_seconds"] = SecondsSince(eval_start);
  }
  result.wall_seconds = SecondsSince(wall_start);
  return result;
}

}  // namespace augur

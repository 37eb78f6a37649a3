#include "experiments/mf/mf_hogwild.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/single/hogwild.h"
#include "experiments/single/hogwild_epochs.h"

namespace augur {

Result<RunResult> RunMfSingle(const RunConfig& config, const MfTask& task) {
  const auto wall_start = std::chrono::steady_clock::now();
  const MfDataset& data = task.data();
  const uint32_t k = task.rank();
  std::vector<float> rows, cols;
  task.InitTables(&rows, &cols);
  Result<std::vector<std::vector<uint32_t>>> split = SplitForThreads(config, task.PartitionKeys());
  if (!split.ok()) return split.status();
  const std::vector<std::vector<uint32_t>>& mine = *split;

  HogwildEpochs epochs;
  epochs.samples_per_epoch = data.train.size();
  epochs.train = [&](uint32_t, uint32_t t, double* loss, uint64_t*) {
    double sum = 0;
    for (uint32_t i : mine[t]) {
      const Rating& x = data.train[i];
      sum += task.TrainRating(x, &rows[size_t{x.row} * k], &cols[size_t{x.col} * k]);
    }
    *loss = sum;
  };
  // The mean squared error, as the PS job's train_loss_per_epoch.
  epochs.mean = [&](double se, uint64_t) { return se / static_cast<double>(data.train.size()); };
  epochs.evaluate = [&] { return task.Evaluate(rows.data(), cols.data()); };
  epochs.untrained = [&] { return task.Untrained(); };
  RunResult result = RunHogwildEpochs(config, epochs, wall_start);
  nlohmann::json rmse = nlohmann::json::array();
  for (const nlohmann::json& mse : result.extra["train_loss_per_epoch"])
    rmse.push_back(std::sqrt(mse.get<double>()));
  result.extra["train_rmse_per_epoch"] = rmse;
  return result;
}

}  // namespace augur

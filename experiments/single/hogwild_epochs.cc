#include "experiments/single/hogwild_epochs.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "experiments/jobs/divergence_guard.h"
#include "experiments/partition/work_split.h"
#include "experiments/single/hogwild.h"

namespace augur {

Result<std::vector<std::vector<uint32_t>>> SplitForThreads(const RunConfig& config,
                                                           const ItemKeys& items) {
  return SplitWork(items, config.workers,
                   ResolvePartition(config.partition, config.workload, /*nodes=*/1), config.seed);
}

RunResult RunHogwildEpochs(const RunConfig& config, const HogwildEpochs& epochs,
                           std::chrono::steady_clock::time_point wall_start) {
  const uint32_t threads = config.workers;
  RunResult result;
  result.backend = "single";
  nlohmann::json losses = nlohmann::json::array();
  nlohmann::json cpu_seconds = nlohmann::json::array();  // per epoch, summed over threads
  // The epochs' mean training loss (jobs/divergence_guard.h).
  DivergenceGuard guard(epochs.untrained_loss);
  for (uint32_t epoch = 0; epoch < config.epochs; ++epoch) {
    std::vector<double> loss(threads, 0.0);
    std::vector<uint64_t> terms(threads, 0);
    const auto start = std::chrono::steady_clock::now();
    const double cpu =
        RunThreads(threads, [&](uint32_t t) { epochs.train(epoch, t, &loss[t], &terms[t]); });
    result.epoch_seconds.push_back(SecondsSince(start));
    cpu_seconds.push_back(cpu);
    double total_loss = 0;
    uint64_t total_terms = 0;
    for (uint32_t t = 0; t < threads; ++t) {
      total_loss += loss[t];
      total_terms += terms[t];
    }
    const double mean = epochs.mean(total_loss, total_terms);
    losses.push_back(mean);
    if (!guard.Observe(epoch, mean)) break;  // diverged: stop
  }
  for (double s : result.epoch_seconds) result.total_seconds += s;
  result.extra["epoch_cpu_seconds"] = cpu_seconds;
  result.samples = uint64_t{result.epoch_seconds.size()} * epochs.samples_per_epoch;
  result.extra["train_loss_per_epoch"] = losses;
  result.extra["diverged"] = guard.diverged();
  if (guard.diverged()) {
    result.extra["divergence"] = guard.Message() + " (mean training loss of the epoch)";
  } else if (config.evaluate) {  // a diverged model is not evaluated, nor one of --no-eval
    const auto eval_start = std::chrono::steady_clock::now();
    nlohmann::json quality = epochs.evaluate();
    result.extra["eval_seconds"] = SecondsSince(eval_start);
    const std::optional<QualityFloor> floor =
        epochs.untrained ? std::optional(epochs.untrained()) : std::nullopt;
    const std::string worse = floor ? WorseThanUntrained(*floor, quality, config.epochs) : "";
    if (worse.empty()) {
      if (floor) RecordUntrained(*floor, &quality);
      result.extra["quality"] = std::move(quality);
    } else {
      result.extra["diverged"] = true;
      result.extra["divergence"] = worse;
    }
  }
  result.wall_seconds = SecondsSince(wall_start);
  return result;
}

}  // namespace augur

#include "experiments/single/kge_hogwild.h"

#include "experiments/jobs/divergence_guard.h"
#include "experiments/models/vector_update.h"
#include "experiments/partition/work_split.h"
#include "experiments/single/hogwild.h"

namespace augur {

Result<RunResult> RunKgeSingle(const RunConfig& config, const KgeTask& task) {
  const auto wall_start = std::chrono::steady_clock::now();
  const KgDataset& data = task.data();
  const uint32_t row = task.row_length();
  const uint32_t entities = data.num_entities();
  const size_t rows = size_t{entities} + data.num_relations();
  const OptimizerConfig opt = task.Optimizer();
  std::vector<float> values(rows * row),
      state(rows * row * opt.StateRows(), opt.initial_accumulator);
  auto index = [&](Key k) -> size_t {
    return k < KgeTask::kRelationKeyBase ? k : entities + (k - KgeTask::kRelationKeyBase);
  };
  for (uint32_t e = 0; e < entities; ++e)
    task.InitRow(KgeTask::EntityKey(e), std::span<float>(&values[size_t{e} * row], row));
  for (uint32_t r = 0; r < data.num_relations(); ++r) {
    const Key k = KgeTask::RelationKey(r);
    task.InitRow(k, std::span<float>(&values[index(k) * row], row));
  }
  const uint32_t threads = config.workers;
  Result<std::vector<std::vector<uint32_t>>> split =
      SplitWork(task.PartitionKeys(), threads,
                ResolvePartition(config.partition, config.workload, false), config.seed);
  if (!split.ok()) return split.status();
  const std::vector<std::vector<uint32_t>>& mine = *split;

  RunResult result;
  result.backend = "single";
  nlohmann::json losses = nlohmann::json::array();
  nlohmann::json cpu_seconds = nlohmann::json::array();  // per epoch, summed over threads
  DivergenceGuard guard;  // the epochs' mean training loss (jobs/divergence_guard.h)
  for (uint32_t epoch = 0; epoch < config.epochs; ++epoch) {
    std::vector<double> loss(threads, 0.0);
    const auto start = std::chrono::steady_clock::now();
    const double cpu = RunThreads(threads, [&](uint32_t t) {
      Rng rng(DeriveSeed(config.seed, t, 0x51E + epoch));
      ExampleGrads grads(row, task.options().negatives + 3);
      std::vector<uint32_t> negs(task.options().negatives);
      double sum = 0;
      for (uint32_t i : mine[t]) {
        task.DrawNegatives(rng, negs.data());
        grads.Clear();
        sum += task.AddExampleGradients(
            data.train[i], negs.data(), [&](Key k) { return &values[index(k) * row]; },
            [&](Key k) { return grads.Row(k); });
        for (size_t j = 0; j < grads.size(); ++j) {
          const size_t at = index(grads.key(j)) * row;
          ApplyUpdateVectorized(opt, &values[at], opt.StateRows() ? &state[at] : nullptr,
                                grads.grad(j), row);
        }
      }
      loss[t] = sum;
    });
    result.epoch_seconds.push_back(SecondsSince(start));
    cpu_seconds.push_back(cpu);
    double total = 0;
    for (double l : loss) total += l;
    losses.push_back(total / static_cast<double>(data.train.size()));
    if (!guard.Observe(epoch, losses.back().get<double>())) break;  // diverged: stop
  }
  for (double s : result.epoch_seconds) result.total_seconds += s;
  result.extra["epoch_cpu_seconds"] = cpu_seconds;
  result.samples = uint64_t{result.epoch_seconds.size()} * data.train.size();
  result.extra["train_loss_per_epoch"] = losses;
  result.extra["diverged"] = guard.diverged();
  if (guard.diverged()) {
    result.extra["divergence"] = guard.Message() + " (mean training loss of the epoch)";
  } else {  // a diverged model is not evaluated
    const auto eval_start = std::chrono::steady_clock::now();
    result.extra["quality"] =
        task.Evaluate(values.data(), &values[size_t{entities} * row], threads);
    result.extra["eval_seconds"] = SecondsSince(eval_start);
  }
  result.wall_seconds = SecondsSince(wall_start);
  return result;
}

}  // namespace augur

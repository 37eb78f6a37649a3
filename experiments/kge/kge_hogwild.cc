#include "experiments/kge/kge_hogwild.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/base/huge_pages.h"
#include "core/store/optimizer.h"
#include "experiments/single/hogwild.h"
#include "experiments/single/hogwild_epochs.h"

namespace augur {

Result<RunResult> RunKgeSingle(const RunConfig& config, const KgeTask& task) {
  const auto wall_start = std::chrono::steady_clock::now();
  const KgDataset& data = task.data();
  const uint32_t row = task.row_length();
  const uint32_t entities = data.num_entities();
  const size_t rows = size_t{entities} + data.num_relations();
  const OptimizerConfig opt = task.Optimizer();
  // Each row's value and its AdaGrad accumulator side by side, as the
  // parameter server's store keeps them: a triple's step touches both, and
  // in two arrays each row cost two distant cache misses (at 5c0d083 the
  // baseline took 1.4x the time per triple of a one-node Augur worker).
  const size_t stride = size_t{row} * (1 + opt.StateRows());
  // On huge pages, as the store's rows (core/store/chunk_pool.h).
  std::vector<float> table;
  AssignOnHugePages(&table, rows * stride, opt.initial_accumulator);
  auto index = [&](Key k) -> size_t {
    return k < KgeTask::kRelationKeyBase ? k : entities + (k - KgeTask::kRelationKeyBase);
  };
  auto value = [&](size_t i) { return &table[i * stride]; };
  for (uint32_t e = 0; e < entities; ++e)
    task.InitRow(KgeTask::EntityKey(e), std::span<float>(value(e), row));
  for (uint32_t r = 0; r < data.num_relations(); ++r) {
    const Key k = KgeTask::RelationKey(r);
    task.InitRow(k, std::span<float>(value(index(k)), row));
  }
  const uint32_t threads = config.workers;
  Result<std::vector<std::vector<uint32_t>>> split = SplitForThreads(config, task.PartitionKeys());
  if (!split.ok()) return split.status();
  const std::vector<std::vector<uint32_t>>& mine = *split;

  HogwildEpochs epochs;
  epochs.samples_per_epoch = data.train.size();
  epochs.untrained_loss = task.UntrainedLoss();
  epochs.train = [&](uint32_t epoch, uint32_t t, double* loss, uint64_t*) {
    Rng rng(DeriveSeed(config.seed, t, 0x51E + epoch));
    ExampleGrads grads(row, task.options().negatives + 3);
    std::vector<uint32_t> negs(task.options().negatives);
    double sum = 0;
    for (uint32_t i : mine[t]) {
      task.DrawNegatives(rng, negs.data());
      grads.Clear();
      sum += task.AddExampleGradients(
          data.train[i], negs.data(), [&](uint32_t, Key k) { return value(index(k)); },
          [&](uint32_t, Key k) { return grads.Row(k); });
      for (size_t j = 0; j < grads.size(); ++j) {
        float* v = value(index(grads.key(j)));
        ApplyUpdate(opt, v, opt.StateRows() ? v + row : nullptr, grads.grad(j), row);
      }
    }
    *loss = sum;
  };
  epochs.mean = [&](double loss, uint64_t) {
    return loss / static_cast<double>(data.train.size());
  };
  epochs.evaluate = [&] {
    std::vector<float> values(rows * row);  // the values alone, dense, for the ranking
    for (size_t i = 0; i < rows; ++i) std::copy_n(value(i), row, &values[i * row]);
    return task.Evaluate(values.data(), &values[size_t{entities} * row], threads);
  };
  return RunHogwildEpochs(config, epochs, wall_start);
}

}  // namespace augur

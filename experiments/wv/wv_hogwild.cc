#include "experiments/wv/wv_hogwild.h"

#include <nlohmann/json.hpp>

#include "experiments/single/hogwild.h"
#include "experiments/single/hogwild_epochs.h"

namespace augur {

Result<RunResult> RunWvSingle(const RunConfig& config, const WvTask& task) {
  const auto wall_start = std::chrono::steady_clock::now();
  const uint32_t d = task.dim();
  std::vector<float> in, out;
  task.InitTables(&in, &out);
  Result<std::vector<std::vector<uint32_t>>> split = SplitForThreads(config, task.PartitionKeys());
  if (!split.ok()) return split.status();
  std::vector<std::vector<uint32_t>> mine = std::move(*split);
  for (std::vector<uint32_t>& items : mine)
    for (uint32_t& i : items) i = task.train_sentences()[i];  // item index -> sentence

  HogwildEpochs epochs;
  epochs.samples_per_epoch = task.train_tokens();
  epochs.untrained_loss = task.UntrainedLoss();
  epochs.train = [&](uint32_t epoch, uint32_t t, double* loss, uint64_t* terms) {
    Rng rng(DeriveSeed(config.seed, t, 0x51E + epoch));
    for (uint32_t s : mine[t]) {
      *loss += task.TrainSentence(
          s, epoch, [&] { return task.DrawNegative(rng); },
          [&](uint32_t w) { return &in[size_t{w} * d]; },
          [&](uint32_t w) { return &out[size_t{w} * d]; }, terms);
    }
  };
  epochs.mean = [](double loss, uint64_t terms) {
    return terms > 0 ? loss / static_cast<double>(terms) : 0.0;
  };
  epochs.evaluate = [&] { return task.Evaluate(in.data(), out.data()); };
  epochs.untrained = [&] { return task.Untrained(); };
  return RunHogwildEpochs(config, epochs, wall_start);
}

}  // namespace augur

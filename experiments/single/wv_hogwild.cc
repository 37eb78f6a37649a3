#include "experiments/single/wv_hogwild.h"

#include "experiments/jobs/divergence_guard.h"
#include "experiments/partition/work_split.h"
#include "experiments/single/hogwild.h"

namespace augur {

Result<RunResult> RunWvSingle(const RunConfig& config, const WvTask& task) {
  const auto wall_start = std::chrono::steady_clock::now();
  const uint32_t v = task.corpus().vocab_size();
  const uint32_t d = task.dim();
  std::vector<float> in(size_t{v} * d), out(size_t{v} * d);
  for (uint32_t w = 0; w < v; ++w) {
    task.InitRow(WvTask::InputKey(w), std::span<float>(&in[size_t{w} * d], d));
    task.InitRow(WvTask::OutputKey(w), std::span<float>(&out[size_t{w} * d], d));
  }
  const uint32_t threads = config.workers;
  Result<std::vector<std::vector<uint32_t>>> split =
      SplitWork(task.PartitionKeys(), threads,
                ResolvePartition(config.partition, config.workload, false), config.seed);
  if (!split.ok()) return split.status();
  std::vector<std::vector<uint32_t>> mine = std::move(*split);
  for (std::vector<uint32_t>& items : mine)
    for (uint32_t& i : items) i = task.train_sentences()[i];  // item index -> sentence

  RunResult result;
  result.backend = "single";
  nlohmann::json losses = nlohmann::json::array();
  nlohmann::json cpu_seconds = nlohmann::json::array();  // per epoch, summed over threads
  DivergenceGuard guard;  // the epochs' mean training loss (jobs/divergence_guard.h)
  for (uint32_t epoch = 0; epoch < config.epochs; ++epoch) {
    std::vector<double> loss(threads, 0.0);
    std::vector<uint64_t> terms(threads, 0);
    const auto start = std::chrono::steady_clock::now();
    const double cpu = RunThreads(threads, [&](uint32_t t) {
      Rng rng(DeriveSeed(config.seed, t, 0x51E + epoch));
      for (uint32_t s : mine[t]) {
        loss[t] += task.TrainSentence(
            s, epoch, [&] { return task.DrawNegative(rng); },
            [&](uint32_t w) { return &in[size_t{w} * d]; },
            [&](uint32_t w) { return &out[size_t{w} * d]; }, &terms[t]);
      }
    });
    result.epoch_seconds.push_back(SecondsSince(start));
    cpu_seconds.push_back(cpu);
    double l = 0, n = 0;
    for (uint32_t t = 0; t < threads; ++t) {
      l += loss[t];
      n += static_cast<double>(terms[t]);
    }
    losses.push_back(n > 0 ? l / n : 0.0);
    if (!guard.Observe(epoch, losses.back().get<double>())) break;  // diverged: stop
  }
  for (double s : result.epoch_seconds) result.total_seconds += s;
  result.extra["epoch_cpu_seconds"] = cpu_seconds;
  result.samples = uint64_t{result.epoch_seconds.size()} * task.train_tokens();
  result.extra["train_loss_per_epoch"] = losses;
  result.extra["diverged"] = guard.diverged();
  if (guard.diverged()) {
    result.extra["divergence"] = guard.Message() + " (mean training loss of the epoch)";
  } else {  // a diverged model is not evaluated
    const auto eval_start = std::chrono::steady_clock::now();
    result.extra["quality"] = task.Evaluate(in.data(), out.data());
    result.extra["eval_seconds"] = SecondsSince(eval_start);
  }
  result.wall_seconds = SecondsSince(wall_start);
  return result;
}

}  // namespace augur

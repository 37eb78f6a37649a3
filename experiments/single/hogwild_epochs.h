// RunHogwildEpochs: the epoch loop every single-node baseline (`augur single`)
// shares: config.epochs epochs of Hogwild threads (hogwild.h) over the
// workload's shared rows, timed, the mean training loss per epoch watched by
// a DivergenceGuard (a diverged run stops and is not evaluated), then the
// workload's evaluation. Reports like every backend (backend "single",
// extra: epoch_cpu_seconds, train_loss_per_epoch, diverged, divergence or
// quality and eval_seconds). A model evaluated worse than its untrained
// rows (HogwildEpochs::untrained) is reported as diverged too.
// Threading: call from one thread; it runs config.workers threads per epoch.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "experiments/jobs/quality_floor.h"
#include "experiments/partition/graph_partitioner.h"
#include "experiments/report/run_result.h"

namespace augur {

struct HogwildEpochs {
  // Key accesses (samples) of one epoch.
  uint64_t samples_per_epoch = 0;
  // Thread `thread`'s share of epoch `epoch`: adds its examples' loss to
  // *loss and, where the mean is per term, their term count to *terms.
  std::function<void(uint32_t epoch, uint32_t thread, double* loss, uint64_t* terms)> train;
  // The epoch's mean training loss from the sums over its threads.
  std::function<double(double loss, uint64_t terms)> mean;
  // The quality of the trained model (result.json "quality").
  std::function<nlohmann::json()> evaluate;
  // Optional: the untrained model's quality (jobs/quality_floor.h); a trained
  // model worse than it is reported as diverged, without a quality.
  std::function<QualityFloor()> untrained;
  // Optional: the untrained model's mean training loss (as `mean` computes
  // it), the divergence guard's reference besides the first loss; 0: unknown.
  double untrained_loss = 0;
};

// Each of the config.workers threads' training items, in training order:
// SplitWork by --partition, `auto` resolved as for one node (random;
// work_split.h). Error (naming the flag) as SplitWork's.
Result<std::vector<std::vector<uint32_t>>> SplitForThreads(const RunConfig& config,
                                                           const ItemKeys& items);

// `wall_start`: when the run began (data already loaded), for wall_seconds.
RunResult RunHogwildEpochs(const RunConfig& config, const HogwildEpochs& epochs,
                           std::chrono::steady_clock::time_point wall_start);

}  // namespace augur

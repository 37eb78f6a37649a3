// ModelMemory: the memory a run's model takes at least, checked against this
// machine's before anything is allocated.
//
// A model too large for the machine (--mf-rows 1000000000 --dim 16384, --keys
// 1e12) otherwise died of std::bad_alloc after loading its data, or was
// killed by the kernel's OOM killer once its store had grown row by row. The
// estimate is a lower bound: every row's values, 4 bytes a float, times
// (1 + the optimizer's state rows: AdaGrad keeps one accumulator per float),
// plus the ratings mf generates in memory, and not the store's padding,
// replicas, batches or the evaluation's copy. So a refusal is never wrong; a
// run that passes may still need more. What one process holds: every node's
// share where they share it (single, loopback, sim: all simulated nodes live
// in one process), one node's share (1/nodes) on tcp, `nodes_here` shares
// where several tcp ranks share this machine (`augur launch --local`).
// Pure functions but PhysicalMemoryBytes, which asks the system.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/base/value_layout.h"
#include "core/store/optimizer.h"
#include "experiments/config/run_config.h"

namespace augur {

struct ModelSize {
  double rows = 0;          // keys (double: --keys x --dim may exceed 2^64)
  double floats = 0;        // floats of all rows together
  uint32_t state_rows = 0;  // optimizer state floats per value float (OptimizerConfig)
  double data_bytes = 0;    // training data held beside the model (mf's generated ratings)
  std::string sized_by;     // the flags and data that set it: "--dim 64, --keys 1000000"
};

// The model of `layout`'s ranges (keys outside every range are not counted)
// with `optimizer`'s state; sized_by names what set it.
ModelSize ModelSizeOf(const ValueLayout& layout, const OptimizerConfig& optimizer,
                      const std::string& sized_by);

// The model as the flags alone size it: zipf (--keys x --dim) and mf's
// generated matrix (--mf-rows + --mf-cols rows of --dim floats, --mf-nnz
// ratings); none where the data sizes it (kge, wv, mf --data).
// REQUIRES: config validated.
std::optional<ModelSize> ModelSizeFromFlags(const RunConfig& config);

// Bytes of the model, its optimizer state and its data.
double ModelBytes(const ModelSize& size);

// Error (one line: the estimate, what sized it and the machine's memory)
// when the bytes this machine would hold of the model exceed
// `machine_bytes`; 0 machine bytes: unknown, never an error.
Status CheckModelMemory(const RunConfig& config, const ModelSize& size, double machine_bytes,
                        uint32_t nodes_here = 1);

// This machine's physical memory (sysconf pages x page size); 0 if unknown.
double PhysicalMemoryBytes();

// CheckModelMemory against PhysicalMemoryBytes, of ModelSizeFromFlags if
// the flags size the model (else Ok: the data will, after loading).
Status CheckFlagModelMemory(const RunConfig& config, uint32_t nodes_here = 1);

// CheckModelMemory against PhysicalMemoryBytes of a loaded workload's model
// (its layout's ranges and its optimizer), before the model is allocated.
Status CheckLoadedModelMemory(const RunConfig& config, const ValueLayout& layout,
                              const OptimizerConfig& optimizer);

// Task::Load(config), then CheckLoadedModelMemory of the task's model: a
// workload's task (kge, wv, mf) as both the parameter server's jobs and the
// single-node baseline load it.
template <typename Task>
Result<std::unique_ptr<Task>> LoadTaskWithinMemory(const RunConfig& config) {
  Result<std::unique_ptr<Task>> task = Task::Load(config);
  if (!task.ok()) return task.status();
  if (Status s = CheckLoadedModelMemory(config, (*task)->Layout(), (*task)->Optimizer()); !s.ok())
    return s;
  return task;
}

}  // namespace augur

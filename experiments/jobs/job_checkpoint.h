// Job checkpoints: the collective steps a Job takes to write a consistent
// checkpoint of whole rows (value and optimizer state) and to restore one,
// plus the checks a checkpoint must pass before a run resumes from it.
//
// WriteRowCheckpoint (every worker of every node calls it, after the epoch's
// barrier; no worker pushes in between): node 0 prepares DIR/ckpt-E.tmp;
// barrier; every node pauses relocation/replication actions; barrier; every
// node flushes its replica deltas to their main copies (WaitSync) and waits
// until no key is on its way to it; barrier (now no row is in transfer
// anywhere and every main copy holds every push); every node writes its main
// copies' rows; barrier; node 0 commits the manifest (checkpoint_files.h);
// actions resume; barrier.
// RestoreRows (every worker, before any access): worker 0 of every node
// installs the rows homed at it under this run's node count (keys re-homed
// when the count changed); barrier.
// A step that fails (the temp dir, a node's part, the commit) makes the
// job fail ("checkpoint failed: ...", Job::Fail), and the worker that ran it
// still takes part in every barrier; the commit fails when a node's part is
// missing, so a checkpoint is published whole or not at all. The job then
// stops; on TCP the peers of a stopped process see it gone.
// Threading: the collective functions run on every worker context at once.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/api/worker.h"
#include "core/base/status.h"
#include "core/base/value_layout.h"
#include "core/store/optimizer.h"
#include "experiments/checkpoint/checkpoint_files.h"
#include "experiments/config/run_config.h"
#include "experiments/jobs/job.h"

namespace augur {

// Loads config.resume_dir and checks it is of this workload, taken before
// the last epoch and with this run's fingerprint. Errors name the checkpoint.
Result<LoadedCheckpoint> LoadResumeCheckpoint(const RunConfig& config,
                                              const nlohmann::json& fingerprint);

// Every row has ValueLayout::Length(key) * (1 + optimizer.StateRows()) floats
// and no key appears twice.
Status CheckRowShapes(const LoadedCheckpoint& ck, const ValueLayout& layout,
                      const OptimizerConfig& optimizer);

// A failed step is recorded with job.Fail before the last barrier, so every
// worker of this process sees job.failed() once this returns.
void WriteRowCheckpoint(Worker& w, Job& job, const RunConfig& config, uint32_t epochs_done,
                        uint64_t clock, const nlohmann::json& fingerprint);

void RestoreRows(Worker& w, const LoadedCheckpoint& ck);

// The last step of a checkpoint, on node 0's lead worker once every node's
// rows are durable: writes the manifest (this run's shape, the epoch and
// global clock reached, the fingerprint) and commits ckpt-E.
Status CommitRunCheckpoint(Worker& w, const std::string& dir, const RunConfig& config,
                           uint32_t epochs_done, uint64_t clock, const nlohmann::json& fingerprint);

}  // namespace augur

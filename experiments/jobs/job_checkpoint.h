// Job checkpoints: the collective steps a Job takes to write a consistent
// checkpoint of rows and to restore one, plus the checks a checkpoint must
// pass before a run resumes from it.
//
// WriteCheckpoint (every worker of every node calls it, after the epoch's
// barrier; no worker pushes in between): node 0 prepares DIR/ckpt-E.tmp;
// barrier; worker 0 of every node settles its node in two steps, each
// followed by a barrier (CheckpointRead says which: for kMainCopies it pauses
// relocation/replication actions, then flushes its replica deltas to their
// main copies (WaitSync) and waits until no key is on its way to it; for
// kPulls it flushes its replica deltas, then refreshes its replicas); now
// no row is in transfer anywhere (kMainCopies) or every copy a pull reads
// holds every push (kPulls); worker 0 of every node collects its node's rows
// (the step passed in) and writes them; barrier; node 0 commits the manifest
// (checkpoint_files.h); actions resume (kMainCopies); barrier.
// WriteRowCheckpoint is WriteCheckpoint reading each node's main copies
// (value and optimizer state, sorted by key).
// RestoreRows (every worker, before any access): worker 0 of every node
// installs the rows homed at it under this run's node count (keys re-homed
// when the count changed); barrier.
// A step that fails (the temp dir, a node's part, the commit) makes the
// job fail ("checkpoint failed: ...", Job::Fail): the later steps are
// skipped, and the worker that ran it still takes part in every barrier;
// the commit fails when a node's part is missing, so a checkpoint is
// published whole or not at all. The job then stops; on TCP the peers of a
// stopped process see it gone. A cancelled worker (a barrier or the
// collecting step's Wait failed: the node is shutting down) leaves at once
// and writes nothing.
// Threading: the collective functions run on every worker context at once.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

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

// How the nodes settle before each collects its rows.
enum class CheckpointRead {
  kMainCopies,  // read the main copies directly: no key may move meanwhile
  kPulls,       // read through pulls: every copy a pull reads must hold every push
};

// What a checkpoint records besides the rows.
struct CheckpointPoint {
  uint32_t epochs_done;
  uint64_t clock;                     // the global clock reached
  const nlohmann::json& fingerprint;  // a resuming run's must equal it
};

// The step that differs between jobs: worker 0 of a node fills `rows` with
// its node's part. A non-ok status means the worker was cancelled (a Wait
// failed): the collective is left at once.
using CollectRows = std::function<Status(Worker& w, std::vector<CheckpointRow>* rows)>;

// A failed step is recorded with job.Fail before the last barrier, so every
// worker of this process sees job.failed() once this returns.
void WriteCheckpoint(Worker& w, Job& job, const RunConfig& config, const CheckpointPoint& at,
                     CheckpointRead read, const CollectRows& collect);

// WriteCheckpoint of each node's main copies (kMainCopies, CopyMainRows).
void WriteRowCheckpoint(Worker& w, Job& job, const RunConfig& config, uint32_t epochs_done,
                        uint64_t clock, const nlohmann::json& fingerprint);

void RestoreRows(Worker& w, const LoadedCheckpoint& ck);

// The last step of a checkpoint, on node 0's lead worker once every node's
// rows are durable: writes the manifest (this run's shape, the epoch and
// global clock reached, the fingerprint) and commits ckpt-E.
Status CommitRunCheckpoint(Worker& w, const std::string& dir, const RunConfig& config,
                           uint32_t epochs_done, uint64_t clock, const nlohmann::json& fingerprint);

}  // namespace augur

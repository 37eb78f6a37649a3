// MfJob: SGD matrix factorization (mf/mf_task.h) on the parameter
// server. Per batch: pull the ratings' row and column factors, run the SGD
// steps on the local copies, push them as gradients for the server-side SGD
// optimizer; so the arithmetic does not depend on where a key is, and a
// resumed run matches an uninterrupted one. On a one-node cluster the steps
// run on the store's rows directly (Worker::ResolveDirect: no copy, Hogwild
// as the baseline). Intent covers the batch's rows and columns; under
// --partition block, a row's for the epoch and a column's for its sub-epoch
// (IntentRunGap).
// Threading: see BatchJob.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "experiments/jobs/row_hints.h"
#include "experiments/jobs/task_job.h"
#include "experiments/mf/mf_task.h"

namespace augur {

class MfJob final : public TaskJob<MfTask> {
 public:
  MfJob(const RunConfig& config, std::unique_ptr<MfTask> task);

 protected:
  void IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                  std::vector<Key>* keys) const override;
  // Under --partition block no other worker uses a row during the run or a
  // column during the sub-epoch that this worker uses it in: a key's intents
  // over an epoch are one signal (rows: the epoch; columns: their sub-epoch).
  uint32_t IntentRunGap() const override;
  BatchStats TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch, Rng& rng,
                        SampleHandle negatives, BatchRows& rows) const override;
  nlohmann::json Evaluate(Worker& w) const override;
  bool UntrainedQuality(QualityFloor* floor) const override;
  const char* SeveralNodesRowAccess() const override {
    return "a rating whose two rows are held on the node: stepped in place under their stripe "
           "locks, its push applied there (Worker::StepHeldPair); other ratings: pull/push "
           "copies";
  }

 private:
  // One node: each rating's factors in the store, resolved in the worker's
  // first pass over it and reused while the store moves nothing
  // (Worker::DirectMoves). Indexed by the rating's position in the worker's
  // items, so an epoch reads the table in order. One per global worker,
  // written by that worker only.
  struct DirectRows {
    std::vector<std::array<float*, 2>> rows;
    std::vector<uint8_t> resolved;
    uint64_t moves = 0;
  };
  BatchStats TrainDirect(Worker& w, std::span<const uint32_t> items) const;
  mutable std::vector<DirectRows> direct_;
  // Several nodes: the ratings of the worker's current batch whose rows were
  // not both held here (they take the pull/push path). One per global
  // worker, written by that worker only (not thread_local: simulated workers
  // share a thread and switch while one waits for its pull).
  mutable std::vector<std::vector<uint32_t>> fetched_;
  // Several nodes: where the worker last stepped each matrix row and column
  // in place, prefetch hints only (TrainBatch). One per global worker, built
  // on its first batch, written by that worker only.
  struct SeenRows {
    RowHints rows, cols;
  };
  mutable std::vector<std::unique_ptr<SeenRows>> seen_rows_;
  // Per global worker: its ratings copied in its training order (ItemsOf),
  // so a batch reads them in sequence rather than at random positions of
  // the training set (under the block schedule the order is shuffled within
  // sub-epochs; the baseline reads its ratings in index order). Const after
  // construction.
  std::vector<std::vector<Rating>> ordered_;
};

}  // namespace augur

// KgeJob: ComplEx knowledge-graph embeddings (kge/kge_task.h) on the
// parameter server. Per batch: pull the triples' entity and relation rows
// and, through the PS sampling access (Worker::PullSample on the batch's
// prepared handle; uniform over entities is the sampler's distribution), the
// negatives' rows; sum the gradients per key
// locally, push them; the main copy applies AdaGrad (NodeOptions::optimizer,
// state beside the value). Intent covers the triples' entities and relations.
// On a one-node cluster (Worker::DirectAccess) each triple's rows are found
// where they are in the store by entity and relation id (DenseRows, resolved
// once per batch) and its gradients stepped into them at once, as the
// single-node baseline does, with no batch index (TrainDirect).
// On a larger cluster, when the negatives are held here as they are drawn
// (Worker::SampleKeysHeldAtPull: local, pool and preloc sampling), a triple
// whose rows are all held here is stepped the same way through
// Worker::ResolveHeld / ApplyHeld (each row read in place, its step applied
// under its stripe lock, a replica's delta taking it); the batch's other
// triples take the copy path together (TrainHeld).
// Threading: see BatchJob.
#pragma once

#include <memory>
#include <vector>

#include "experiments/jobs/dense_rows.h"
#include "experiments/jobs/task_job.h"
#include "experiments/kge/kge_task.h"

namespace augur {

class KgeJob final : public TaskJob<KgeTask> {
 public:
  KgeJob(const RunConfig& config, std::unique_ptr<KgeTask> task);

 protected:
  void IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                  std::vector<Key>* keys) const override;
  BatchStats TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch, Rng& rng,
                        SampleHandle negatives, BatchRows& rows) const override;
  std::function<Key(Rng&)> NegativeDistribution() const override;
  uint64_t NegativesFor(std::span<const uint32_t> items, uint32_t epoch) const override;
  nlohmann::json Evaluate(Worker& w) const override;
  const char* SeveralNodesRowAccess() const override;

 private:
  // One node: the rows in the store, found by entity and relation id
  // (DenseRows), resolved once per batch.
  struct DirectRows {
    DenseRows entities;                              // from KgeTask::EntityKey(0)
    DenseRows relations;                             // from KgeTask::RelationKey(0)
    std::vector<uint32_t> entity_ids, relation_ids;  // one batch's, for Resolve
  };
  BatchStats TrainDirect(Worker& w, std::span<const uint32_t> items, SampleHandle negatives) const;
  BatchStats TrainHeld(Worker& w, std::span<const uint32_t> items, SampleHandle negatives,
                       BatchRows& rows) const;
  // Per global worker, built on its first direct batch; written by it only.
  mutable std::vector<std::unique_ptr<DirectRows>> direct_;
};

}  // namespace augur

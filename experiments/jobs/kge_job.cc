#include "experiments/jobs/kge_job.h"

namespace augur {

namespace {
constexpr uint32_t kEvalThreads = 2;
}  // namespace

KgeJob::KgeJob(const RunConfig& config, std::unique_ptr<KgeTask> task)
    : TaskJob(config, std::move(task)) {
  Partition(task_->PartitionKeys());
}

void KgeJob::IntentKeys(std::span<const uint32_t> items, uint32_t /*epoch*/,
                        std::vector<Key>* keys) const {
  for (uint32_t i : items) {
    const Triple& t = task_->data().train[i];
    keys->push_back(KgeTask::EntityKey(t.head));
    keys->push_back(KgeTask::RelationKey(t.relation));
    keys->push_back(KgeTask::EntityKey(t.tail));
  }
}

BatchStats KgeJob::TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t /*epoch*/,
                              Rng& rng, BatchRows& rows) const {
  const uint32_t negatives = task_->options().negatives;
  // Not thread_local: simulated workers share one OS thread and rows.Pull()
  // yields to the others, which would overwrite it before it is used.
  std::vector<uint32_t> negs(items.size() * negatives);
  rows.Clear();
  for (size_t i = 0; i < items.size(); ++i) {
    const Triple& t = task_->data().train[items[i]];
    rows.Add(KgeTask::EntityKey(t.head));
    rows.Add(KgeTask::RelationKey(t.relation));
    rows.Add(KgeTask::EntityKey(t.tail));
    task_->DrawNegatives(rng, &negs[i * negatives]);
    for (uint32_t j = 0; j < negatives; ++j) rows.Add(KgeTask::EntityKey(negs[i * negatives + j]));
  }
  rows.Pull(w, /*keep_original=*/false);
  BatchStats s;
  for (size_t i = 0; i < items.size(); ++i) {
    s.loss += task_->AddExampleGradients(
        task_->data().train[items[i]], &negs[i * negatives],
        [&](Key k) -> const float* { return rows.Row(k); }, [&](Key k) { return rows.Grad(k); });
  }
  rows.PushGradients(w);
  s.terms = s.samples = items.size();
  return s;
}

nlohmann::json KgeJob::Evaluate(Worker& w) const {
  const KgDataset& d = task_->data();
  const std::vector<float> entities = PullTable(w, d.num_entities(), task_->row_length(),
                                                [](uint64_t i) { return KgeTask::EntityKey(i); });
  const std::vector<float> relations =
      PullTable(w, d.num_relations(), task_->row_length(),
                [](uint64_t i) { return KgeTask::RelationKey(static_cast<uint32_t>(i)); });
  return task_->Evaluate(entities.data(), relations.data(), kEvalThreads);
}

}  // namespace augur

#include "experiments/jobs/mf_job.h"

namespace augur {

MfJob::MfJob(const RunConfig& config, std::unique_ptr<MfTask> task)
    : TaskJob(config, std::move(task)) {
  Partition(task_->PartitionKeys());
}

void MfJob::IntentKeys(std::span<const uint32_t> items, uint32_t /*epoch*/,
                       std::vector<Key>* keys) const {
  for (uint32_t i : items) {
    const Rating& x = task_->data().train[i];
    keys->push_back(MfTask::RowKey(x.row));
    keys->push_back(MfTask::ColumnKey(x.col));
  }
}

BatchStats MfJob::TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t /*epoch*/,
                             Rng& /*rng*/, SampleHandle /*negatives*/, BatchRows& rows) const {
  rows.Clear();
  for (uint32_t i : items) {
    const Rating& x = task_->data().train[i];
    rows.Add(MfTask::RowKey(x.row));
    rows.Add(MfTask::ColumnKey(x.col));
  }
  rows.Pull(w, /*keep_original=*/true);
  BatchStats s;
  for (uint32_t i : items) {
    const Rating& x = task_->data().train[i];
    s.loss +=
        task_->TrainRating(x, rows.Row(MfTask::RowKey(x.row)), rows.Row(MfTask::ColumnKey(x.col)));
  }
  rows.PushSgdSteps(w, task_->options().learning_rate);
  s.terms = s.samples = items.size();
  return s;
}

nlohmann::json MfJob::Evaluate(Worker& w) const {
  const MfDataset& d = task_->data();
  const std::vector<float> r =
      PullTable(w, d.rows, task_->rank(), [](uint64_t i) { return MfTask::RowKey(i); });
  const std::vector<float> c = PullTable(w, d.cols, task_->rank(), [](uint64_t i) {
    return MfTask::ColumnKey(static_cast<uint32_t>(i));
  });
  return task_->Evaluate(r.data(), c.data());
}

}  // namespace augur

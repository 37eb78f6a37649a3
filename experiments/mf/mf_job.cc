#include "experiments/mf/mf_job.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/base/check.h"
#include "experiments/jobs/quality_floor.h"
#include "experiments/partition/work_split.h"

namespace augur {

namespace {
// Calls f(item, rating) for each item in order, prefetching the ratings a few
// items ahead: a worker's items are scattered over the training set, and a
// lookup that depends on each rating would otherwise wait for its miss alone.
template <typename F>
void ForRatings(const std::vector<Rating>& train, std::span<const uint32_t> items, F&& f) {
  constexpr size_t kAhead = 16;
  for (size_t j = 0; j < std::min(kAhead, items.size()); ++j) __builtin_prefetch(&train[items[j]]);
  for (size_t j = 0; j < items.size(); ++j) {
    if (j + kAhead < items.size()) __builtin_prefetch(&train[items[j + kAhead]]);
    f(items[j], train[items[j]]);
  }
}
}  // namespace

MfJob::MfJob(const RunConfig& config, std::unique_ptr<MfTask> task)
    : TaskJob(config, std::move(task)) {
  Partition(task_->PartitionKeys());
  for (const Rating& r : task_->data().train) {  // the cells are in the keys; their values too
    uint32_t bits = 0;
    std::memcpy(&bits, &r.value, sizeof(bits));
    MixIntoDataDigest(bits);
  }
  direct_.resize(size_t{config.nodes} * config.workers);
  fetched_.resize(size_t{config.nodes} * config.workers);
  seen_rows_.resize(size_t{config.nodes} * config.workers);
  ordered_.resize(size_t{config.nodes} * config.workers);
  for (uint32_t g = 0; g < ordered_.size(); ++g) {
    ordered_[g].reserve(ItemsOf(g).size());
    for (uint32_t i : ItemsOf(g)) ordered_[g].push_back(task_->data().train[i]);
  }
}

BatchStats MfJob::TrainDirect(Worker& w, std::span<const uint32_t> items) const {
  const uint32_t g = GlobalWorker(w);
  DirectRows& d = direct_[g];
  const size_t at = static_cast<size_t>(items.data() - ItemsOf(g).data());
  if (d.rows.empty()) {
    d.rows.resize(ItemsOf(g).size());
    d.resolved.assign(ItemsOf(g).size(), 0);
  }
  if (w.DirectMoves() != d.moves) {
    std::fill(d.resolved.begin(), d.resolved.end(), 0);
    d.moves = w.DirectMoves();
  }
  if (!d.resolved[at]) {  // a batch is resolved as a whole
    std::vector<Key> keys;
    keys.reserve(2 * items.size());
    for (uint32_t i : items) {
      const Rating& x = task_->data().train[i];
      keys.push_back(MfTask::RowKey(x.row));
      keys.push_back(MfTask::ColumnKey(x.col));
    }
    std::vector<ParamStore::Entry> entries;
    w.ResolveDirect(keys, &entries);
    for (size_t j = 0; j < items.size(); ++j) {
      d.rows[at + j] = {entries[2 * j].value, entries[2 * j + 1].value};
      d.resolved[at + j] = 1;
    }
  } else {
    w.CountDirect(2 * items.size());
  }
  BatchStats s;
  for (size_t j = 0; j < items.size(); ++j)
    s.loss +=
        task_->TrainRating(task_->data().train[items[j]], d.rows[at + j][0], d.rows[at + j][1]);
  s.terms = s.samples = s.in_place = items.size();
  return s;
}

void MfJob::IntentKeys(std::span<const uint32_t> items, uint32_t /*epoch*/,
                       std::vector<Key>* keys) const {
  ForRatings(task_->data().train, items, [&](uint32_t, const Rating& x) {
    keys->push_back(MfTask::RowKey(x.row));
    keys->push_back(MfTask::ColumnKey(x.col));
  });
}

uint32_t MfJob::IntentRunGap() const {
  return ResolvePartition(config_.partition, config_.workload, config_.nodes) == "block"
             ? UINT32_MAX
             : 0;
}

BatchStats MfJob::TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t /*epoch*/,
                             Rng& /*rng*/, SampleHandle /*negatives*/, BatchRows& rows) const {
  if (w.DirectAccess()) return TrainDirect(w, items);
  // Ratings whose two rows are held here train on them in place (no copy);
  // the rest pull, train on the copies and push, which fetches their rows.
  BatchStats s;
  const float lr = task_->options().learning_rate;
  std::vector<uint32_t>& fetched = fetched_[GlobalWorker(w)];
  fetched.clear();
  // The worker's ratings in its training order (ordered_), read in
  // sequence; the store's index lines of the rows kAhead ratings on load
  // while this one trains.
  constexpr size_t kAhead = 6;
  const uint32_t g = GlobalWorker(w);
  const size_t at = static_cast<size_t>(items.data() - ItemsOf(g).data());
  AUGUR_CHECK(at + items.size() <= ordered_[g].size(), "mf batch outside worker %u's items", g);
  const Rating* batch = ordered_[g].data() + at;
  // Where each rating's two rows were when this worker last stepped them:
  // their lines load kAhead ratings ahead too (RowHints).
  std::unique_ptr<SeenRows>& seen = seen_rows_[g];
  if (seen == nullptr)
    seen = std::make_unique<SeenRows>(
        SeenRows{RowHints(task_->data().rows), RowHints(task_->data().cols)});
  const uint32_t row_bytes = task_->rank() * sizeof(float);
  const auto prefetch = [&](size_t j) {
    if (j >= items.size()) return;
    w.PrefetchHeld(MfTask::RowKey(batch[j].row));
    w.PrefetchHeld(MfTask::ColumnKey(batch[j].col));
    seen->rows.Prefetch(batch[j].row, row_bytes);
    seen->cols.Prefetch(batch[j].col, row_bytes);
  };
  for (size_t j = 0; j < kAhead; ++j) prefetch(j);
  for (size_t j = 0; j < items.size(); ++j) {
    prefetch(j + kAhead);
    const Rating& x = batch[j];
    const bool held = w.StepHeldPair(MfTask::RowKey(x.row), MfTask::ColumnKey(x.col), lr,
                                     [&](float* u, float* v) {
                                       seen->rows.Set(x.row, u);
                                       seen->cols.Set(x.col, v);
                                       s.loss += task_->TrainRating(x, u, v);
                                     });
    if (!held) fetched.push_back(items[j]);
  }
  s.terms = s.samples = items.size();
  s.in_place = items.size() - fetched.size();
  if (fetched.empty()) return s;
  rows.Clear();
  for (uint32_t i : fetched) {
    const Rating& x = task_->data().train[i];
    rows.Add(MfTask::RowKey(x.row));
    rows.Add(MfTask::ColumnKey(x.col));
  }
  rows.Pull(w, /*keep_original=*/true);
  const std::vector<uint32_t>& slot = rows.added_slots();  // row, column per rating
  for (size_t j = 0; j < fetched.size(); ++j) {
    const Rating& x = task_->data().train[fetched[j]];
    s.loss += task_->TrainRating(x, rows.RowAt(slot[2 * j]), rows.RowAt(slot[2 * j + 1]));
  }
  rows.PushSgdSteps(w, lr);
  return s;
}

bool MfJob::UntrainedQuality(QualityFloor* floor) const {
  *floor = task_->Untrained();
  return true;
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

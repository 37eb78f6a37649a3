#include "experiments/wv/wv_job.h"

#include <nlohmann/json.hpp>

#include "core/base/check.h"
#include "experiments/jobs/quality_floor.h"

namespace augur {

WvJob::WvJob(const RunConfig& config, std::unique_ptr<WvTask> task)
    : TaskJob(config, std::move(task)) {
  Partition(task_->PartitionKeys());
  direct_.resize(size_t{config.nodes} * config.workers);
}

BatchStats WvJob::TrainDirect(Worker& w, std::span<const uint32_t> items, uint32_t epoch,
                              SampleHandle negatives) const {
  std::unique_ptr<DirectRows>& d = direct_[GlobalWorker(w)];
  const uint32_t v = task_->corpus().vocab_size();
  if (d == nullptr)
    d = std::make_unique<DirectRows>(
        DirectRows{DenseRows(v, WvTask::InputKey(0)), DenseRows(v, WvTask::OutputKey(0))});
  std::vector<Key> sampled;
  w.PullSample(negatives, &sampled, nullptr);  // the keys; their rows are used in place
  std::vector<uint32_t> words, windows, batch_words, negs(sampled.size());
  for (uint32_t i : items) {
    task_->KeptPositions(task_->train_sentences()[i], epoch, &words, &windows);
    batch_words.insert(batch_words.end(), words.begin(), words.end());
  }
  for (size_t j = 0; j < sampled.size(); ++j)
    negs[j] = static_cast<uint32_t>(sampled[j] - WvTask::kOutputKeyBase);
  d->in.Resolve(w, batch_words);
  d->out.Resolve(w, batch_words);
  d->out.Resolve(w, negs);
  size_t next = 0;
  auto next_negative = [&] {
    AUGUR_CHECK(next < negs.size(), "the sample has only %zu keys", negs.size());
    return negs[next++];
  };
  BatchStats s;
  for (uint32_t i : items) {
    const uint32_t sentence = task_->train_sentences()[i];
    s.loss += task_->TrainSentence(
        sentence, epoch, next_negative, [&](uint32_t word) { return d->in.Row(word); },
        [&](uint32_t word) { return d->out.Row(word); }, &s.terms);
    const TextCorpus& c = task_->corpus();
    s.samples += c.sentence_end[sentence] - c.SentenceBegin(sentence);
  }
  AUGUR_CHECK(next == negs.size(), "used %zu of %zu sampled keys", next, negs.size());
  s.sampled = sampled.size();
  for (Key k : sampled) s.sampled_key_sum += k;
  return s;
}

void WvJob::IntentKeys(std::span<const uint32_t> items, uint32_t epoch,
                       std::vector<Key>* keys) const {
  thread_local std::vector<uint32_t> words, windows;
  for (uint32_t i : items) {
    task_->KeptPositions(task_->train_sentences()[i], epoch, &words, &windows);
    for (uint32_t word : words) {
      keys->push_back(WvTask::InputKey(word));
      keys->push_back(WvTask::OutputKey(word));
    }
  }
}

std::function<Key(Rng&)> WvJob::NegativeDistribution() const {
  const WvTask* task = task_.get();  // owned by this job, which outlives its nodes
  return [task](Rng& rng) { return WvTask::OutputKey(task->DrawNegative(rng)); };
}

uint64_t WvJob::NegativesFor(std::span<const uint32_t> items, uint32_t epoch) const {
  uint64_t pairs = 0;
  for (uint32_t i : items) pairs += task_->NumPairs(task_->train_sentences()[i], epoch);
  return pairs * task_->options().negatives;
}

BatchStats WvJob::TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch,
                             Rng& /*rng*/, SampleHandle negatives, BatchRows& rows) const {
  if (w.DirectAccess()) return TrainDirect(w, items, epoch, negatives);
  rows.Clear();
  thread_local std::vector<uint32_t> words, windows;
  for (uint32_t i : items) {
    task_->KeptPositions(task_->train_sentences()[i], epoch, &words, &windows);
    for (uint32_t word : words) {
      rows.Add(WvTask::InputKey(word));
      rows.Add(WvTask::OutputKey(word));
    }
  }
  rows.Pull(w, /*keep_original=*/true, [&](std::vector<Key>* keys, std::vector<float>* values) {
    w.PullSample(negatives, keys, values);
  });
  // The negatives in the order the training pass asks for them.
  const std::vector<Key>& sampled = rows.sampled_keys();
  size_t next = 0;
  auto next_negative = [&] {
    AUGUR_CHECK(next < sampled.size(), "the sample has only %zu keys", sampled.size());
    return static_cast<uint32_t>(sampled[next++] - WvTask::kOutputKeyBase);
  };
  BatchStats s;
  for (uint32_t i : items) {
    const uint32_t sentence = task_->train_sentences()[i];
    s.loss += task_->TrainSentence(
        sentence, epoch, next_negative,
        [&](uint32_t word) { return rows.Row(WvTask::InputKey(word)); },
        [&](uint32_t word) { return rows.Row(WvTask::OutputKey(word)); }, &s.terms);
    const TextCorpus& c = task_->corpus();
    s.samples += c.sentence_end[sentence] - c.SentenceBegin(sentence);
  }
  AUGUR_CHECK(next == sampled.size(), "used %zu of %zu sampled keys", next, sampled.size());
  rows.PushSgdSteps(w, task_->options().learning_rate);
  s.sampled = sampled.size();
  for (Key k : sampled) s.sampled_key_sum += k;
  return s;
}

bool WvJob::UntrainedQuality(QualityFloor* floor) const {
  *floor = task_->Untrained();
  return true;
}

nlohmann::json WvJob::Evaluate(Worker& w) const {
  const uint32_t v = task_->corpus().vocab_size();
  const std::vector<float> in =
      PullTable(w, v, task_->dim(), [](uint64_t i) { return WvTask::InputKey(i); });
  const std::vector<float> out = PullTable(
      w, v, task_->dim(), [](uint64_t i) { return WvTask::OutputKey(static_cast<uint32_t>(i)); });
  return task_->Evaluate(in.data(), out.data());
}

}  // namespace augur

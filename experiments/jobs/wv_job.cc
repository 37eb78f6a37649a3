#include "experiments/jobs/wv_job.h"

namespace augur {

WvJob::WvJob(const RunConfig& config, std::unique_ptr<WvTask> task)
    : TaskJob(config, std::move(task)) {
  Partition(task_->PartitionKeys());
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

BatchStats WvJob::TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t epoch, Rng& rng,
                             BatchRows& rows) const {
  rows.Clear();
  Rng plan = rng;  // the same draws as the training pass below
  for (uint32_t i : items) {
    task_->ForEachPair(task_->train_sentences()[i], epoch, plan,
                       [&](uint32_t center, uint32_t context, const uint32_t* negs) {
                         rows.Add(WvTask::InputKey(center));
                         rows.Add(WvTask::OutputKey(context));
                         for (uint32_t n = 0; n < task_->options().negatives; ++n)
                           rows.Add(WvTask::OutputKey(negs[n]));
                       });
  }
  rows.Pull(w, /*keep_original=*/true);
  BatchStats s;
  for (uint32_t i : items) {
    const uint32_t sentence = task_->train_sentences()[i];
    s.loss += task_->TrainSentence(
        sentence, epoch, rng, [&](uint32_t word) { return rows.Row(WvTask::InputKey(word)); },
        [&](uint32_t word) { return rows.Row(WvTask::OutputKey(word)); }, &s.terms);
    const TextCorpus& c = task_->corpus();
    s.samples += c.sentence_end[sentence] - c.SentenceBegin(sentence);
  }
  rows.PushSgdSteps(w, task_->options().learning_rate);
  return s;
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

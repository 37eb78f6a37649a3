#include "experiments/kge/kge_job.h"

#include <nlohmann/json.hpp>

#include "core/base/check.h"
#include "core/sampling/sampling.h"
#include "core/store/optimizer.h"
#include "experiments/models/example_grads.h"

namespace augur {

namespace {
constexpr uint32_t kEvalThreads = 2;
}  // namespace

KgeJob::KgeJob(const RunConfig& config, std::unique_ptr<KgeTask> task)
    : TaskJob(config, std::move(task)) {
  Partition(task_->PartitionKeys());
  direct_.resize(size_t{config.nodes} * config.workers);
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

std::function<Key(Rng&)> KgeJob::NegativeDistribution() const {
  const uint32_t entities = task_->data().num_entities();
  return [entities](Rng& rng) { return KgeTask::NegativeKey(rng, entities); };
}

uint64_t KgeJob::NegativesFor(std::span<const uint32_t> items, uint32_t /*epoch*/) const {
  return uint64_t{task_->options().negatives} * items.size();
}

namespace {

// A triple's keys by their place in the example (KgeTask::kHeadAt ...), its
// negatives' entity ids beside them.
void TripleKeys(const Triple& t, const Key* sampled, uint32_t per_triple, std::vector<Key>* keys,
                std::vector<uint32_t>* negs) {
  keys->resize(KgeTask::kNegativeAt + per_triple);
  negs->resize(per_triple);
  (*keys)[KgeTask::kHeadAt] = KgeTask::EntityKey(t.head);
  (*keys)[KgeTask::kRelationAt] = KgeTask::RelationKey(t.relation);
  (*keys)[KgeTask::kTailAt] = KgeTask::EntityKey(t.tail);
  for (uint32_t j = 0; j < per_triple; ++j) {
    (*negs)[j] = static_cast<uint32_t>(sampled[j]);
    (*keys)[KgeTask::kNegativeAt + j] = sampled[j];
  }
}

// The batch's negatives (keys only) and the stats every path reports.
std::vector<Key> SampledKeys(Worker& w, SampleHandle negatives, size_t needed) {
  std::vector<Key> sampled;
  w.PullSample(negatives, &sampled, nullptr);
  AUGUR_CHECK(sampled.size() == needed, "the sample has %zu keys, the batch needs %zu",
              sampled.size(), needed);
  return sampled;
}

void CountBatch(size_t triples, const std::vector<Key>& sampled, BatchStats* s) {
  s->terms = s->samples = triples;
  s->sampled = sampled.size();
  for (Key k : sampled) s->sampled_key_sum += k;
}

// The copy path's step for one triple: its gradients, from the batch's rows
// (slot(at): the batch slot of the key at place `at` of the example), taken
// apart and added to the batch's (BatchRows::AddGradient). Returns its loss.
template <typename SlotFn>
float AddToBatch(const KgeTask& task, const Triple& t, const uint32_t* negs, SlotFn&& slot,
                 ExampleGrads* example, BatchRows* rows) {
  example->Clear();
  const float loss = task.AddExampleGradients(
      t, negs, [&](uint32_t at, Key) -> const float* { return rows->RowAt(slot(at)); },
      [&](uint32_t at, Key k) { return example->Row(k, slot(at)); });
  for (size_t j = 0; j < example->size(); ++j) rows->AddGradient(example->tag(j), example->grad(j));
  return loss;
}

// Tries of a triple's rows in place before it takes the copy path: a retry
// follows a row freed while the maths read it (Worker::HeldUnmoved).
constexpr uint32_t kHeldTries = 3;

}  // namespace

BatchStats KgeJob::TrainDirect(Worker& w, std::span<const uint32_t> items,
                               SampleHandle negatives) const {
  const uint32_t per_triple = task_->options().negatives;
  const std::vector<Key> sampled = SampledKeys(w, negatives, size_t{per_triple} * items.size());
  const OptimizerConfig& opt = w.optimizer();
  const uint32_t row = task_->row_length();
  std::unique_ptr<DirectRows>& d = direct_[GlobalWorker(w)];
  if (d == nullptr) {
    const KgDataset& data = task_->data();
    d = std::make_unique<DirectRows>(
        DirectRows{DenseRows(data.num_entities(), KgeTask::EntityKey(0)),
                   DenseRows(data.num_relations(), KgeTask::RelationKey(0)),
                   {},
                   {}});
  }
  // The batch's rows, each resolved once (the reads: one per place in a triple).
  d->entity_ids.clear();
  d->relation_ids.clear();
  for (uint32_t i : items) {
    const Triple& t = task_->data().train[i];
    d->entity_ids.push_back(t.head);
    d->entity_ids.push_back(t.tail);
    d->relation_ids.push_back(t.relation);
  }
  for (Key k : sampled) d->entity_ids.push_back(static_cast<uint32_t>(k));
  d->entities.Resolve(w, d->entity_ids);
  d->relations.Resolve(w, d->relation_ids);
  // One node holds main copies only: a row's value, then its optimizer state.
  const bool has_state = opt.StateRows() > 0;
  // Not thread_local: simulated workers share one OS thread (see TrainBatch).
  std::vector<uint32_t> negs(per_triple);
  std::vector<float*> rows(KgeTask::kNegativeAt + per_triple);
  ExampleGrads example(row, per_triple + 3);
  BatchStats s;
  for (size_t i = 0; i < items.size(); ++i) {
    const Triple& t = task_->data().train[items[i]];
    rows[KgeTask::kHeadAt] = d->entities.Row(t.head);
    rows[KgeTask::kRelationAt] = d->relations.Row(t.relation);
    rows[KgeTask::kTailAt] = d->entities.Row(t.tail);
    for (uint32_t j = 0; j < per_triple; ++j) {
      negs[j] = static_cast<uint32_t>(sampled[i * per_triple + j]);
      rows[KgeTask::kNegativeAt + j] = d->entities.Row(negs[j]);
    }
    // Each key's row by its place in the example; a repeated key shares its
    // gradient row (ExampleGrads), stepped once through its first place.
    example.Clear();
    s.loss += task_->AddExampleGradients(
        t, negs.data(), [&](uint32_t at, Key) -> const float* { return rows[at]; },
        [&](uint32_t at, Key k) { return example.Row(k, at); });
    for (size_t j = 0; j < example.size(); ++j) {
      float* value = rows[example.tag(j)];
      ApplyUpdate(opt, value, has_state ? value + row : nullptr, example.grad(j), row);
    }
    w.CountDirect(example.size());  // the writes (Resolve counted the reads)
  }
  CountBatch(items.size(), sampled, &s);
  s.in_place = items.size();
  return s;
}

BatchStats KgeJob::TrainHeld(Worker& w, std::span<const uint32_t> items, SampleHandle negatives,
                             BatchRows& rows) const {
  const uint32_t per_triple = task_->options().negatives;
  const std::vector<Key> sampled = SampledKeys(w, negatives, size_t{per_triple} * items.size());
  std::vector<Key> keys;
  std::vector<uint32_t> negs;
  std::vector<ParamStore::Entry> entries;
  std::vector<Key> step_keys;
  std::vector<ParamStore::Entry> step_entries;
  std::vector<const float*> steps;
  std::vector<size_t> copied;  // triples with a row not held here
  ExampleGrads example(task_->row_length(), per_triple + 3);
  BatchStats s;
  for (size_t i = 0; i < items.size(); ++i) {
    const Triple& t = task_->data().train[items[i]];
    TripleKeys(t, &sampled[i * per_triple], per_triple, &keys, &negs);
    bool stepped = false;
    for (uint32_t tries = 0; tries < kHeldTries && !stepped; ++tries) {
      uint64_t since = 0;
      if (!w.ResolveHeld(keys, &entries, &since)) break;
      example.Clear();
      const float loss = task_->AddExampleGradients(
          t, negs.data(), [&](uint32_t at, Key) -> const float* { return entries[at].value; },
          [&](uint32_t at, Key k) { return example.Row(k, at); });
      if (!w.HeldUnmoved(since)) continue;  // a row was freed while read
      step_keys.clear();
      step_entries.clear();
      steps.clear();
      for (size_t j = 0; j < example.size(); ++j) {
        step_keys.push_back(example.key(j));
        step_entries.push_back(entries[example.tag(j)]);
        steps.push_back(example.grad(j));
      }
      w.ApplyHeld(step_keys, step_entries, since, steps);
      s.loss += loss;
      stepped = true;
    }
    if (!stepped) copied.push_back(i);
  }
  if (!copied.empty()) {
    // Their rows through the copy path: one pull (waited for) and one push.
    rows.Clear();
    for (size_t i : copied) {
      TripleKeys(task_->data().train[items[i]], &sampled[i * per_triple], per_triple, &keys, &negs);
      for (Key k : keys) rows.Add(k);
    }
    rows.Pull(w, /*keep_original=*/false);
    const std::vector<uint32_t>& added = rows.added_slots();
    const size_t per_example = KgeTask::kNegativeAt + per_triple;
    for (size_t c = 0; c < copied.size(); ++c) {
      const size_t i = copied[c];
      TripleKeys(task_->data().train[items[i]], &sampled[i * per_triple], per_triple, &keys, &negs);
      const uint32_t* slot = &added[c * per_example];
      s.loss += AddToBatch(
          *task_, task_->data().train[items[i]], negs.data(), [&](uint32_t at) { return slot[at]; },
          &example, &rows);
    }
    rows.PushGradients(w);
  }
  CountBatch(items.size(), sampled, &s);
  s.in_place = items.size() - copied.size();
  return s;
}

BatchStats KgeJob::TrainBatch(Worker& w, std::span<const uint32_t> items, uint32_t /*epoch*/,
                              Rng& /*rng*/, SampleHandle negatives, BatchRows& rows) const {
  if (w.DirectAccess()) return TrainDirect(w, items, negatives);
  if (w.SampleKeysHeldAtPull()) return TrainHeld(w, items, negatives, rows);
  const uint32_t per_triple = task_->options().negatives;
  rows.Clear();
  for (uint32_t i : items) {
    const Triple& t = task_->data().train[i];
    rows.Add(KgeTask::EntityKey(t.head));
    rows.Add(KgeTask::RelationKey(t.relation));
    rows.Add(KgeTask::EntityKey(t.tail));
  }
  // Not thread_local: simulated workers share one OS thread and the pull
  // yields to the others, which would overwrite it before it is used.
  std::vector<uint32_t> negs(items.size() * per_triple);
  rows.Pull(w, /*keep_original=*/false, [&](std::vector<Key>* keys, std::vector<float>* values) {
    w.PullSample(negatives, keys, values);
  });
  const std::vector<Key>& sampled = rows.sampled_keys();
  AUGUR_CHECK(sampled.size() == negs.size(), "the sample has %zu keys, the batch needs %zu",
              sampled.size(), negs.size());
  for (size_t j = 0; j < negs.size(); ++j) negs[j] = static_cast<uint32_t>(sampled[j]);
  BatchStats s;
  // Each triple's gradients apart, then added to the batch's: with AdaGrad
  // the push carries their squares too (BatchRows::AddGradient), so a row
  // many triples of the batch share (a relation, a hub entity) takes the
  // accumulator growth of the baseline's per-triple steps.
  ExampleGrads example(task_->row_length(), per_triple + 3);
  // Each key's batch slot by its place in the example (added in head,
  // relation, tail order above; the negatives as sampled): no lookups.
  const std::vector<uint32_t>& added = rows.added_slots();
  const std::vector<uint32_t>& sampled_slots = rows.sampled_slots();
  for (size_t i = 0; i < items.size(); ++i) {
    const uint32_t* fixed = &added[3 * i];
    const uint32_t* neg = &sampled_slots[i * per_triple];
    const auto slot = [&](uint32_t at) {
      return at < KgeTask::kNegativeAt ? fixed[at] : neg[at - KgeTask::kNegativeAt];
    };
    s.loss += AddToBatch(*task_, task_->data().train[items[i]], &negs[i * per_triple], slot,
                         &example, &rows);
  }
  rows.PushGradients(w);
  CountBatch(items.size(), sampled, &s);
  return s;
}

const char* KgeJob::SeveralNodesRowAccess() const {
  Result<SampleScheme> scheme = ParseSampleScheme(config_.sampling);
  if (scheme.ok() && WorkerSampler::KeysHeldAtPull(*scheme))
    return "a triple whose rows are all held on the node: read in place, its steps applied "
           "there under the stripe locks (Worker::ResolveHeld/ApplyHeld); other triples: "
           "pull/push copies";
  return "pull/push copies of every row, local or remote (naive and prefetch sampling leave "
         "negatives remote; in place needs local, pool or preloc, or one node)";
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

#include "experiments/kge/kge_task.h"

#include <nlohmann/json.hpp>

#include "core/base/check.h"
#include "experiments/data/data_cache.h"
#include "experiments/models/task_rows.h"

namespace augur {

Result<std::unique_ptr<KgeTask>> KgeTask::Load(const RunConfig& config) {
  Result<std::string> dir = ResolveKgDataDir(config.data_dir, config.wordnet_dir);
  if (!dir.ok()) return dir.status();
  Result<KgDataset> data = ReadKgDataset(*dir);
  if (!data.ok()) return data.status();
  if (data->num_entities() >= kRelationKeyBase)
    return Status::Error(*dir + ": too many entities for the key space");
  if (config.evaluate && data->test.empty())
    return Status::Error(*dir +
                         ": no test triples, so the test MRR cannot be measured (import it with "
                         "a test split, or train with --no-eval)");
  return std::make_unique<KgeTask>(std::move(*data), config.kge, config.seed);
}

KgeTask::KgeTask(KgDataset data, KgeOptions options, uint64_t seed)
    : data_(std::move(data)), options_(options), seed_(seed), evaluator_(data_) {}

ValueLayout KgeTask::Layout() const {
  return TwoRangeLayout("kge", row_length(), data_.num_entities(), kRelationKeyBase,
                        data_.num_relations());
}

OptimizerConfig KgeTask::Optimizer() const {
  return TaskOptimizer(OptimizerKind::kAdaGrad, options_.learning_rate);
}

void KgeTask::InitRow(Key key, std::span<float> row) const {
  InitUniformRow(seed_, key, options_.init_scale, row);
}

ItemKeys KgeTask::PartitionKeys() const {
  ItemKeys items;
  items.num_keys = data_.num_entities();
  items.keys.reserve(2 * data_.train.size());
  items.end.reserve(data_.train.size());
  for (const Triple& t : data_.train) items.Add({t.head, t.tail});
  return items;
}

nlohmann::json KgeTask::Evaluate(const float* entities, const float* relations,
                                 uint32_t threads) const {
  const std::vector<Triple> valid =
      KgeEvaluator::Sample(data_.valid, options_.eval_triples, seed_ + 1);
  const std::vector<Triple> test = KgeEvaluator::Sample(data_.test, options_.eval_triples, seed_);
  nlohmann::json q =
      evaluator_.Evaluate(entities, relations, options_.dim, valid, threads).ToJson("valid_");
  q.update(evaluator_.Evaluate(entities, relations, options_.dim, test, threads).ToJson("test_"));
  q["eval_sampled"] = options_.eval_triples != 0 && (options_.eval_triples < data_.test.size());
  return q;
}

}  // namespace augur

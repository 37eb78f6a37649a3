// `augur data wordnet|text|mf`: prepares the data sets the workloads train on.
#include <cstdio>
#include <memory>

#include "experiments/cli/command.h"
#include "experiments/data/data_cache.h"
#include "experiments/data/kg_dataset.h"
#include "experiments/data/mf_dataset.h"
#include "experiments/data/text_corpus.h"
#include "experiments/data/wordnet_reader.h"

namespace augur {

namespace {

struct DataFlags {
  std::string out;
  std::string wordnet = kDefaultWordNetDir;
  uint64_t seed = kWordNetSplitSeed;
  uint64_t valid = kWordNetHeldOut;
  uint64_t test = kWordNetHeldOut;
  MfGenOptions mf;
};

int RunWordNet(const DataFlags& f) {
  Result<KgDataset> d = BuildWordNetKg(f.wordnet, f.valid, f.test, f.seed);
  if (!d.ok()) return RunError(d.status().message());
  if (Status s = WriteKgDataset(*d, f.out); !s.ok()) return RunError(s.message());
  std::printf(
      "wordnet: %u entities, %u relation types, %llu pointer records, %llu edges after dedup\n"
      "  split (seed %llu): train %zu, valid %zu, test %zu -> %s\n",
      d->num_entities(), d->num_relations(),
      static_cast<unsigned long long>(d->meta["pointer_records"].get<uint64_t>()),
      static_cast<unsigned long long>(d->meta["edges"].get<uint64_t>()),
      static_cast<unsigned long long>(f.seed), d->train.size(), d->valid.size(), d->test.size(),
      f.out.c_str());
  return 0;
}

int RunText(const DataFlags& f) {
  Result<uint64_t> n = BuildWordNetTextCorpus(f.wordnet, f.out);
  if (!n.ok()) return RunError(n.status().message());
  Result<TextCorpus> c = ReadTextCorpus(f.out, 1);
  if (!c.ok()) return RunError(c.status().message());
  std::printf("text: %llu sentences, %zu tokens, vocabulary %u words -> %s\n",
              static_cast<unsigned long long>(*n), c->tokens.size(), c->vocab_size(),
              f.out.c_str());
  return 0;
}

int RunMf(DataFlags f) {
  f.mf.seed = f.seed;
  Result<MfDataset> d = GenerateMf(f.mf);
  if (!d.ok()) return RunError(d.status().message());
  if (Status s = WriteMfDataset(*d, f.mf, f.out); !s.ok()) return RunError(s.message());
  std::printf("mf: %u x %u, %zu train and %zu test cells (Zipf %.2f, seed %llu) -> %s\n", d->rows,
              d->cols, d->train.size(), d->test.size(), f.mf.skew,
              static_cast<unsigned long long>(f.seed), f.out.c_str());
  return 0;
}

}  // namespace

CommandFn AddDataCommand(CLI::App& root) {
  auto f = std::make_shared<DataFlags>();
  CLI::App* data = root.add_subcommand("data", "Prepare data sets: wordnet, text, mf");
  data->require_subcommand(1);
  CLI::App* wn = data->add_subcommand(
      "wordnet", "WordNet 3.0 knowledge graph (synsets, pointer types) with a seeded split");
  CLI::App* text = data->add_subcommand("text", "Word corpus from WordNet glosses and examples");
  CLI::App* mf = data->add_subcommand("mf", "Zipf-skewed synthetic rating matrix");
  for (CLI::App* app : {wn, text, mf})
    app->add_option("--out", f->out, "Output directory")->required();
  for (CLI::App* app : {wn, text})
    app->add_option("--wordnet", f->wordnet, "WordNet database directory")->capture_default_str();
  wn->add_option("--seed", f->seed, "Split seed")->capture_default_str();
  wn->add_option("--valid", f->valid, "Validation triples")->capture_default_str();
  wn->add_option("--test", f->test, "Test triples")->capture_default_str();
  mf->add_option("--seed", f->seed, "Generator seed")->capture_default_str();
  mf->add_option("--rows", f->mf.rows, "Rows")->capture_default_str();
  mf->add_option("--cols", f->mf.cols, "Columns")->capture_default_str();
  mf->add_option("--nnz", f->mf.nnz, "Non-zero cells (train + test)")->capture_default_str();
  mf->add_option("--skew", f->mf.skew, "Zipf exponent of row/column popularity")
      ->capture_default_str();
  mf->add_option("--rank", f->mf.true_rank, "Rank of the hidden factors")->capture_default_str();
  mf->add_option("--noise", f->mf.noise, "Std. deviation of the noise")->capture_default_str();
  mf->add_option("--test-fraction", f->mf.test_fraction, "Share of cells held out")
      ->capture_default_str();
  return [f, wn, text, mf]() -> int {
    if (wn->parsed()) return RunWordNet(*f);
    if (text->parsed()) return RunText(*f);
    if (mf->parsed()) return RunMf(*f);
    return UsageError("augur data needs wordnet, text or mf");
  };
}

}  // namespace augur

// `augur data wordnet|kg|text|mf`: prepares the data sets the workloads train on,
// from WordNet, from the user's own files, or generated.
//
// Every subcommand writes into a temporary sibling of --out that is renamed
// into place at the end (StagedDir), so a failed run leaves nothing behind.
// Exit codes: 0 done; 2 bad usage or a bad input file ("augur: FILE:LINE: what
// is wrong"); 1 a failure to write the output.
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "experiments/cli/command.h"
#include "experiments/cli/data_help.h"
#include "experiments/ctr/ctr_generator.h"
#include "experiments/data/data_cache.h"
#include "experiments/data/line_reader.h"
#include "experiments/data/staged_dir.h"
#include "experiments/kge/kg_dataset.h"
#include "experiments/kge/kg_import.h"
#include "experiments/kge/wordnet_reader.h"
#include "experiments/mf/mf_dataset.h"
#include "experiments/mf/mf_import.h"
#include "experiments/wv/corpus_builder.h"
#include "experiments/wv/text_corpus.h"
#include "experiments/wv/text_import.h"

namespace augur {

namespace {

struct WordNetFlags {
  std::string out;
  std::string wordnet = kDefaultWordNetDir;
  uint64_t seed = kWordNetSplitSeed;
  uint64_t valid = kWordNetHeldOut;
  uint64_t test = kWordNetHeldOut;
};

struct KgFlags {
  std::string out;
  KgImportOptions import;
  std::string split;  // "V,T"
};

struct TextFlags {
  std::string out;
  std::string wordnet = kDefaultWordNetDir;
  std::vector<std::string> in;
};

struct MfFlags {
  std::string out;
  std::string in;
  uint64_t seed = 1;
  double test_share = 0.1;
  MfGenOptions gen;
};

// Runs write(tmp) into a staged --out and commits it.
int WriteStaged(const std::string& out, const std::function<Status(const std::string&)>& write) {
  Result<StagedDir> dir = StagedDir::Begin(out);
  if (!dir.ok()) return UsageError(dir.status().message());
  if (Status s = write(dir->path()); !s.ok()) return RunError(s.message());
  if (Status s = dir->Commit(); !s.ok()) return RunError(s.message());
  return 0;
}

int RunWordNet(const WordNetFlags& f) {
  if (f.test == 0)
    return UsageError("--test 0 holds out no test triples; they are what measures quality");
  Result<KgDataset> d = BuildWordNetKg(f.wordnet, f.valid, f.test, f.seed);
  if (!d.ok()) return InputError(d.status().message());  // the WordNet files: bad input
  if (d->test.empty())
    return UsageError("--valid " + std::to_string(f.valid) + " takes every held-out triple (" +
                      std::to_string(d->valid.size()) +
                      "), leaving no test triples to measure quality: a smaller --valid");
  if (int rc = WriteStaged(f.out, [&](const std::string& tmp) { return WriteKgDataset(*d, tmp); }))
    return rc;
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

// "V,T" -> two counts.
Status ParseSplit(const std::string& text, uint64_t* valid, uint64_t* test) {
  const auto f = SplitOn(text, ',');
  if (f.size() != 2 || !ParseU64(f[0], valid) || !ParseU64(f[1], test))
    return Status::Error("--split expects V,T (two counts, e.g. 5000,5000), got '" + text + "'");
  return Status::Ok();
}

int RunKg(KgFlags f) {
  const bool files = !f.import.valid_file.empty() || !f.import.test_file.empty();
  if (files && !f.split.empty())
    return UsageError("give --valid FILE --test FILE or --split V,T, not both");
  if (!files && f.split.empty())
    return UsageError("give --valid FILE --test FILE, or --split V,T to hold out triples");
  if (files && (f.import.valid_file.empty() || f.import.test_file.empty()))
    return UsageError("--valid FILE and --test FILE go together");
  if (!f.split.empty()) {
    if (Status s = ParseSplit(f.split, &f.import.split_valid, &f.import.split_test); !s.ok())
      return UsageError(s.message());
  }
  Result<KgDataset> d = ImportKg(f.import);
  if (!d.ok()) return InputError(d.status().message());
  if (int rc = WriteStaged(f.out, [&](const std::string& tmp) { return WriteKgDataset(*d, tmp); }))
    return rc;
  const auto count = [&](const char* key) {
    return static_cast<unsigned long long>(d->meta[key].get<uint64_t>());
  };
  std::printf(
      "kg: %u entities, %u relations; train %zu (%llu repeated triples dropped), valid %zu, "
      "test %zu\n"
      "  dropped for an entity or relation not in training: valid %llu, test %llu -> %s\n",
      d->num_entities(), d->num_relations(), d->train.size(), count("train_duplicates"),
      d->valid.size(), d->test.size(), count("valid_dropped"), count("test_dropped"),
      f.out.c_str());
  for (const auto& where : d->meta["headers_skipped"])
    std::printf("  skipped the header row %s\n", where.get<std::string>().c_str());
  return 0;
}

int RunText(const TextFlags& f) {
  if (f.in.empty()) {
    Result<uint64_t> n = 0;
    if (int rc = WriteStaged(f.out, [&](const std::string& tmp) {
          n = BuildWordNetTextCorpus(f.wordnet, tmp);
          return n.ok() ? Status::Ok() : n.status();
        }))
      return rc;
    Result<TextCorpus> c = ReadTextCorpus(f.out, 1);
    if (!c.ok()) return RunError(c.status().message());
    std::printf("text: %llu sentences, %zu tokens, vocabulary %u words -> %s\n",
                static_cast<unsigned long long>(*n), c->tokens.size(), c->vocab_size(),
                f.out.c_str());
    return 0;
  }
  CorpusBuilder corpus;
  Result<uint64_t> lines = ImportText(f.in, &corpus);
  if (!lines.ok()) return InputError(lines.status().message());
  nlohmann::json meta = {{"source", f.in}, {"lines", *lines}};
  if (int rc = WriteStaged(f.out, [&](const std::string& tmp) { return corpus.Write(meta, tmp); }))
    return rc;
  std::printf(
      "text: %llu lines, %llu sentences of 2+ words, %llu tokens, vocabulary %llu words -> %s\n",
      static_cast<unsigned long long>(*lines), static_cast<unsigned long long>(corpus.sentences()),
      static_cast<unsigned long long>(corpus.tokens()),
      static_cast<unsigned long long>(corpus.vocabulary()), f.out.c_str());
  return 0;
}

int RunMf(MfFlags f, const CLI::App& app) {
  if (!f.in.empty()) {
    for (const char* gen : {"--rows", "--cols", "--nnz", "--skew", "--rank", "--noise"})
      if (app.count(gen) > 0)
        return UsageError(std::string(gen) +
                          " shapes a generated matrix; it does not apply with --in");
    if (!(f.test_share > 0 && f.test_share < 1))
      return UsageError(
          "--test-share must be in (0, 1): the test ratings are what measures quality");
    Result<MfImport> d = ImportMf({f.in, f.test_share, f.seed});
    if (!d.ok()) return InputError(d.status().message());
    if (int rc = WriteStaged(f.out, [&](const std::string& tmp) { return WriteMfImport(*d, tmp); }))
      return rc;
    std::printf("mf: %s, %u users x %u items, %zu train and %zu test ratings -> %s\n",
                d->meta["input_format"].get<std::string>().c_str(), d->data.rows, d->data.cols,
                d->data.train.size(), d->data.test.size(), f.out.c_str());
    if (!d->header.empty())
      std::printf("  skipped the header row %s:%llu: %s\n", f.in.c_str(),
                  static_cast<unsigned long long>(d->header_line), d->header.c_str());
    if (d->duplicates > 0)
      std::printf("  %llu repeated (user, item) ratings dropped (the first of each kept)\n",
                  static_cast<unsigned long long>(d->duplicates));
    return 0;
  }
  f.gen.seed = f.seed;
  f.gen.test_fraction = f.test_share;
  Result<MfDataset> d = GenerateMf(f.gen);
  if (!d.ok()) return UsageError(d.status().message());
  if (d->test.empty()) {
    char share[32];
    std::snprintf(share, sizeof(share), "%g", f.test_share);
    return UsageError(std::string("the test split is empty: --test-share ") + share + " of --nnz " +
                      std::to_string(f.gen.nnz) +
                      " cells held out none; the test cells are what measures quality: give "
                      "more --nnz or a larger --test-share");
  }
  if (int rc = WriteStaged(f.out,
                           [&](const std::string& tmp) { return WriteMfDataset(*d, f.gen, tmp); }))
    return rc;
  std::printf("mf: %u x %u, %zu train and %zu test cells (Zipf %.2f, seed %llu) -> %s\n", d->rows,
              d->cols, d->train.size(), d->test.size(), f.gen.skew,
              static_cast<unsigned long long>(f.seed), f.out.c_str());
  return 0;
}

}  // namespace

// `augur data ctr`: the generated click-through data set.
int RunCtr(const CtrOptions& o, const std::string& out) {
  if (Status s = ValidateCtrOptions(o); !s.ok()) return UsageError(s.message());
  if (int rc = WriteStaged(out, [&](const std::string& tmp) { return WriteCtrDataset(o, tmp); }))
    return rc;
  std::printf(
      "ctr: %llu rows (13 dense, 26 categorical features, ids up to %u per feature) -> %s\n",
      static_cast<unsigned long long>(o.rows), o.max_cardinality, out.c_str());
  return 0;
}

CommandFn AddDataCommand(CLI::App& root) {
  auto wf = std::make_shared<WordNetFlags>();
  auto kf = std::make_shared<KgFlags>();
  auto tf = std::make_shared<TextFlags>();
  auto mff = std::make_shared<MfFlags>();
  CLI::App* data = root.add_subcommand("data",
                                       "Prepare data sets: wordnet, kg (your triples), text (your "
                                       "text or WordNet), ctr (generated), mf "
                                       "(your ratings or generated)");
  data->require_subcommand(1);
  data->footer(DataHelpAll());
  CLI::App* wn = data->add_subcommand(
      "wordnet", "WordNet 3.0 knowledge graph (synsets, pointer types) with a seeded split");
  wn->footer(DataHelpKgDir());
  wn->add_option("--out", wf->out, "Output directory (a KG directory)")->required();
  wn->add_option("--wordnet", wf->wordnet, "WordNet database directory")->capture_default_str();
  wn->add_option("--seed", wf->seed, "Split seed")->capture_default_str();
  wn->add_option("--valid", wf->valid, "Validation triples")->capture_default_str();
  wn->add_option("--test", wf->test, "Test triples")->capture_default_str();

  CLI::App* kg = data->add_subcommand(
      "kg", "Import a knowledge graph of head<TAB>relation<TAB>tail name triples");
  kg->footer(DataHelpKgInput() + "\n" + DataHelpKgDir());
  kg->add_option("--train", kf->import.train_file, "Training triples (TSV)")->required();
  kg->add_option("--valid", kf->import.valid_file,
                 "Validation triples (TSV); triples naming an entity or relation that is not in "
                 "--train are dropped and counted");
  kg->add_option("--test", kf->import.test_file, "Test triples (TSV), as --valid");
  kg->add_option("--split", kf->split,
                 "V,T: instead of --valid/--test, hold out V validation and T test triples of "
                 "--train by seed (every held-out id keeps a training triple)");
  kg->add_option("--seed", kf->import.seed, "Split seed")->capture_default_str();
  kg->add_option("--out", kf->out, "Output directory (a KG directory)")->required();

  CLI::App* text = data->add_subcommand(
      "text", "Word corpus from your UTF-8 text files (--in), or from the WordNet glosses");
  text->footer(DataHelpTextInput() + "\n" + DataHelpTextDir());
  text->add_option("--in", tf->in,
                   "UTF-8 text file; every line becomes one sentence (repeat for more files)");
  text->add_option("--wordnet", tf->wordnet, "Without --in: WordNet database directory")
      ->capture_default_str();
  text->add_option("--out", tf->out, "Output directory (a text directory)")->required();

  CLI::App* mf = data->add_subcommand(
      "mf", "Import a rating matrix (--in: MatrixMarket, CSV/TSV, MovieLens), or generate one");
  mf->footer(DataHelpMfInput() + "\n" + DataHelpMfDir());
  mf->add_option("--in", mff->in,
                 "Ratings file: MatrixMarket coordinate, CSV or TSV (optional header row), or "
                 "'::'-separated (MovieLens ratings.dat); format detected from the content");
  mf->add_option("--out", mff->out, "Output directory (an mf directory)")->required();
  mf->add_option("--test-share,--test-fraction", mff->test_share,
                 "Share of ratings held out for the test split")
      ->capture_default_str();
  mf->add_option("--seed", mff->seed, "Split seed (and generator seed without --in)")
      ->capture_default_str();
  mf->add_option("--rows", mff->gen.rows, "Without --in: rows")->capture_default_str();
  mf->add_option("--cols", mff->gen.cols, "Without --in: columns")->capture_default_str();
  mf->add_option("--nnz", mff->gen.nnz, "Without --in: non-zero cells (train + test)")
      ->capture_default_str();
  mf->add_option("--skew", mff->gen.skew, "Without --in: Zipf exponent of row/column popularity")
      ->capture_default_str();
  mf->add_option("--rank", mff->gen.true_rank, "Without --in: rank of the hidden factors")
      ->capture_default_str();
  mf->add_option("--noise", mff->gen.noise, "Without --in: std. deviation of the noise")
      ->capture_default_str();
  auto ctr_options = std::make_shared<CtrOptions>();
  auto ctr_out = std::make_shared<std::string>();
  CLI::App* ctr = data->add_subcommand(
      "ctr",
      "Generate a Criteo-shaped click-through data set: 13 dense and 26 categorical features "
      "(Zipf ids), labels from a planted logistic truth (the ctr Python workload)");
  ctr->add_option("--out", *ctr_out, "Output directory")->required();
  ctr->add_option("--rows", ctr_options->rows, "Rows (train + test)")->capture_default_str();
  ctr->add_option("--test-fraction", ctr_options->test_fraction, "Share of rows held out")
      ->capture_default_str();
  ctr->add_option("--max-cardinality", ctr_options->max_cardinality,
                  "Ids of the largest feature (the others geometrically fewer, down to 4)")
      ->capture_default_str();
  ctr->add_option("--skew", ctr_options->skew, "Zipf exponent of the ids")->capture_default_str();
  ctr->add_option("--seed", ctr_options->seed, "Generator seed")->capture_default_str();
  return [wf, kf, tf, mff, wn, kg, text, mf, ctr, ctr_options, ctr_out]() -> int {
    if (ctr->parsed()) return RunCtr(*ctr_options, *ctr_out);
    if (wn->parsed()) return RunWordNet(*wf);
    if (kg->parsed()) return RunKg(*kf);
    if (text->parsed()) return RunText(*tf);
    if (mf->parsed()) return RunMf(*mff, *mf);
    return UsageError("augur data needs wordnet, kg, text or mf (see augur data --help)");
  };
}

}  // namespace augur

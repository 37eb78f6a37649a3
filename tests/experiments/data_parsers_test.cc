// Parsers of the workload data sets: hand-made inputs, malformed lines
// (errors must name FILE:LINE), round trips. Unit label: fast.
#include <catch2/catch.hpp>

#include "experiments/data/line_reader.h"
#include "experiments/kge/kg_dataset.h"
#include "experiments/kge/wordnet_reader.h"
#include "experiments/mf/mf_dataset.h"
#include "experiments/wv/text_corpus.h"
#include "tests/experiments/tiny_data.h"

namespace augur {
namespace {

using testing::TempDir;

constexpr const char* kNoun =
    "  1 This software and database is being provided to you, the LICENSEE\n"
    "00001740 03 n 01 entity 0 003 ~ 00001930 n 0000 ~ 00002137 n 0000 @ 00002137 n 0101 | that "
    "which is perceived; \"an example\"\n"
    "00001930 03 n 01 physical_entity 0 001 @ 00001740 n 0000 | an entity that has physical "
    "existence\n"
    "00002137 03 n 02 abstraction 0 abstract_entity 0 002 @ 00001740 n 0000 + 00000001 v 0101 | "
    "a general concept\n";
constexpr const char* kVerb =
    "00000001 29 v 01 breathe 0 001 + 00002137 n 0101 01 + 02 00 | draw air\n";

void WriteWordNet(const TempDir& d, const std::string& noun) {
  d.Write("data.noun", noun);
  d.Write("data.verb", kVerb);
  d.Write("data.adj", "");
  d.Write("data.adv", "");
}

TEST_CASE("wordnet reader parses synsets, pointers and glosses", "[data]") {
  TempDir d("wn-ok");
  WriteWordNet(d, kNoun);
  std::vector<std::string> glosses;
  Result<WordNetGraph> g =
      ReadWordNet(d.path(), [&](const WordNetSynset& s) { glosses.push_back(s.gloss); });
  REQUIRE(g.ok());
  CHECK(g->entity_names.size() == 4);
  CHECK(g->entity_names[0] == "n.00001740");
  CHECK(g->entity_lemmas[2] == "abstraction");
  CHECK(g->pointer_records == 7);
  // "~ 00002137" and "@ 00002137" differ by symbol; nothing duplicated here.
  CHECK(g->triples.size() == 7);
  CHECK(g->relation_names.size() == 3);  // ~ @ +
  CHECK(glosses[0] == "that which is perceived; \"an example\"");
}

TEST_CASE("wordnet reader deduplicates lexical pointers lifted to synsets", "[data]") {
  TempDir d("wn-dup");
  WriteWordNet(d, std::string(kNoun) +
                      "00002500 03 n 02 a 0 b 0 002 + 00000001 v 0101 + 00000001 v 0201 | x y\n");
  Result<WordNetGraph> g = ReadWordNet(d.path());
  REQUIRE(g.ok());
  CHECK(g->pointer_records == 9);
  CHECK(g->triples.size() == 8);
}

TEST_CASE("wordnet reader reports malformed lines with file and line", "[data]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"00001740 03 n 01 entity 0 001 ~ 00001930 n 0000\n", "missing ' | '"},
      {"0000174 03 n 01 entity 0 000 | x\n", "8-digit synset offset"},
      {"00001740 03 n zz entity 0 000 | x\n", "word count"},
      {"00001740 03 n 03 entity 0 000 | x\n", "is missing"},
      {"00001740 03 n 01 entity 0 002 ~ 00001930 n 0000 | x\n", "pointer 2"},
      {"00001740 03 v 01 entity 0 000 | x\n", "does not belong"},
      {"00001740 03 n 01 entity 0 001 ~ 00001930 q 0000 | x\n", "part of speech"},
      {"00001740 03 n 01 entity 0 001 ~ 0000193x n 0000 | x\n", "target offset"},
      {"00001740 03 n 01 entity 0 99999999999999999999 | x\n", "pointer count"},
  };
  for (const auto& [line, what] : bad) {
    TempDir d("wn-bad");
    WriteWordNet(d, std::string("  1 license\n").append(line));
    Result<WordNetGraph> g = ReadWordNet(d.path());
    INFO(line);
    REQUIRE_FALSE(g.ok());
    CHECK_THAT(g.status().message(), Catch::Contains(d.File("data.noun") + ":2: "));
    CHECK_THAT(g.status().message(), Catch::Contains(what));
  }
}

TEST_CASE("wordnet reader: dangling pointer and missing package are errors", "[data]") {
  TempDir d("wn-dangling");
  WriteWordNet(d, "00001740 03 n 01 entity 0 001 ~ 00009999 n 0000 | x\n");
  Result<WordNetGraph> g = ReadWordNet(d.path());
  REQUIRE_FALSE(g.ok());
  CHECK_THAT(g.status().message(), Catch::Contains("data.noun:1: pointer to synset n.00009999"));
  Result<WordNetGraph> missing = ReadWordNet(d.File("nope"));
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.status().message(), Catch::Contains("wordnet-base"));
  CHECK_THAT(missing.status().message(), Catch::Contains("nope/data.noun"));
}

TEST_CASE("line reader handles long lines, CRLF and a missing final newline", "[data]") {
  TempDir d("lines");
  const std::string long_line(10000, 'x');
  d.Write("a.txt", std::string("one\r\n").append(long_line).append("\nlast"));
  Result<LineReader> r = LineReader::Open(d.File("a.txt"));
  REQUIRE(r.ok());
  std::string line;
  REQUIRE(r->Next(&line));
  CHECK(line == "one");
  REQUIRE(r->Next(&line));
  CHECK(line == long_line);
  REQUIRE(r->Next(&line));
  CHECK(line == "last");
  CHECK(r->line_number() == 3);
  CHECK_FALSE(r->Next(&line));
  CHECK(r->status().ok());
  d.Write("huge.txt", std::string(kMaxLineBytes + 10, 'y'));
  Result<LineReader> h = LineReader::Open(d.File("huge.txt"));
  REQUIRE(h.ok());
  CHECK_FALSE(h->Next(&line));
  CHECK_THAT(h->status().message(), Catch::Contains("huge.txt:1: line longer"));
  uint32_t u = 0;
  CHECK_FALSE(ParseU32("4294967296", &u));
  CHECK_FALSE(ParseU32("-1", &u));
  CHECK_FALSE(ParseU32("12a", &u));
}

TEST_CASE("kg dataset round-trips and rejects bad ids with file:line", "[data]") {
  TempDir d("kg");
  const KgDataset tiny = testing::TinyKg();
  REQUIRE(WriteKgDataset(tiny, d.path()).ok());
  Result<KgDataset> back = ReadKgDataset(d.path());
  REQUIRE(back.ok());
  CHECK(back->train == tiny.train);
  CHECK(back->test == tiny.test);
  CHECK(back->num_entities() == tiny.num_entities());
  d.Write("valid.tsv", "# head\trelation\ttail\n1\t0\t2\n1\t0\t120\n");
  Result<KgDataset> bad = ReadKgDataset(d.path());
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Catch::Contains("valid.tsv:3: tail"));
  d.Write("valid.tsv", "1 0 2\n");
  CHECK_THAT(ReadKgDataset(d.path()).status().message(), Catch::Contains("valid.tsv:1: expected"));
  d.Write("entities.tsv", "0\ta\n2\tb\n");
  CHECK_THAT(ReadKgDataset(d.path()).status().message(),
             Catch::Contains("entities.tsv:2: expected id 1"));
}

TEST_CASE("kg split keeps every held-out id in train", "[data]") {
  const KgDataset d = testing::TinyKg();
  CHECK(d.valid.size() == 40);
  CHECK(d.test.size() == 40);
  std::vector<int> in_train(d.num_entities(), 0);
  for (const Triple& t : d.train) in_train[t.head] = in_train[t.tail] = 1;
  for (const auto* split : {&d.valid, &d.test})
    for (const Triple& t : *split) CHECK((in_train[t.head] && in_train[t.tail]));
  CHECK(testing::TinyKg().train == d.train);  // deterministic
}

TEST_CASE("text corpus tokenises and validates its files", "[data]") {
  std::vector<std::string> words;
  Tokenize("The dog's \"bark\" -- well-known; 42 x-", &words);
  CHECK(words == std::vector<std::string>{"the", "dog's", "bark", "well-known", "42", "x"});
  TempDir d("text");
  d.Write("vocab.tsv", "# word\tcount\nthe\t3\ndog\t2\nrare\t1\n");
  d.Write("corpus.txt", "the dog\nthe rare dog the\nrare\n");
  Result<TextCorpus> c = ReadTextCorpus(d.path(), 2);
  REQUIRE(c.ok());
  CHECK(c->vocab_size() == 2);
  CHECK(c->num_sentences() == 2);  // "rare" alone is dropped
  CHECK(c->tokens == std::vector<uint32_t>{0, 1, 0, 1, 0});
  d.Write("corpus.txt", "the dog\nthe cat\n");
  CHECK_THAT(ReadTextCorpus(d.path(), 1).status().message(),
             Catch::Contains("corpus.txt:2: word 'cat' is not in vocab.tsv"));
  d.Write("vocab.tsv", "the\t3\ndog\tx\n");
  CHECK_THAT(ReadTextCorpus(d.path(), 1).status().message(), Catch::Contains("vocab.tsv:2: count"));
}

TEST_CASE("mf generator is skewed, exact and round-trips and its reader checks bounds", "[data]") {
  MfGenOptions o;
  o.rows = 300;
  o.cols = 100;
  o.nnz = 3000;
  o.skew = 1.1;
  Result<MfDataset> d = GenerateMf(o);
  REQUIRE(d.ok());
  CHECK(d->train.size() + d->test.size() == 3000);
  std::vector<int> per_row(o.rows, 0);
  for (const Rating& r : d->train) ++per_row[r.row];
  CHECK(per_row[0] > 5 * per_row[o.rows - 1] + 5);  // Zipf: row 0 is hot
  TempDir dir("mf");
  REQUIRE(WriteMfDataset(*d, o, dir.path()).ok());
  Result<MfDataset> back = ReadMfDataset(dir.path());
  REQUIRE(back.ok());
  CHECK(back->train.size() == d->train.size());
  dir.Write("test.tsv", "1\t2\t0.5\n300\t2\t0.5\n");
  CHECK_THAT(ReadMfDataset(dir.path()).status().message(), Catch::Contains("test.tsv:2: row"));
  dir.Write("test.tsv", "1\t2\tnan\n");
  CHECK_THAT(ReadMfDataset(dir.path()).status().message(), Catch::Contains("test.tsv:1: value"));
  dir.Write("meta.json", "{\"rows\": -3}");
  CHECK_THAT(ReadMfDataset(dir.path()).status().message(), Catch::Contains("'rows'"));
  o.nnz = 20000;
  CHECK_FALSE(GenerateMf(o).ok());
  // Each bad generator option is named on its own (C2, B8).
  o.nnz = 3000;
  MfGenOptions bad = o;
  bad.true_rank = 0;
  CHECK_THAT(GenerateMf(bad).status().message(), Catch::StartsWith("--rank must be"));
  bad = o;
  bad.noise = -1;
  CHECK_THAT(GenerateMf(bad).status().message(), Catch::StartsWith("--noise must be"));
  bad = o;
  bad.skew = -1;
  CHECK_THAT(GenerateMf(bad).status().message(), Catch::StartsWith("--skew must be"));
  bad = o;
  bad.test_fraction = 0;
  CHECK_THAT(GenerateMf(bad).status().message(),
             Catch::StartsWith("--test-share must be in (0, 1)"));
}

}  // namespace
}  // namespace augur

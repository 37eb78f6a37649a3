// Importers of the user's own data: KG triples of names, ratings
// (MatrixMarket, CSV/TSV with or without a header, MovieLens csv and dat),
// plain text, and the staged output directory. Good files give the expected
// ids and counts; a bad line gives FILE:LINE; a failed import leaves no
// directory. Unit label: fast.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "experiments/data/staged_dir.h"
#include "experiments/kge/kg_import.h"
#include "experiments/mf/mf_import.h"
#include "experiments/wv/corpus_builder.h"
#include "experiments/wv/text_corpus.h"
#include "experiments/wv/text_import.h"
#include "tests/experiments/tiny_data.h"

namespace augur {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// --- knowledge graphs --------------------------------------------------------

TEST_CASE("kg import: names get dense ids in first-seen order", "[data][import]") {
  TempDir d("kg-names");
  d.Write("train.tsv",
          "# a comment\n"
          "alice\tknows\tbob\n"
          "\n"
          "bob\tlikes\t42\n"
          "42\tknows\talice\n"
          "alice\tknows\tbob\n");  // repeated: kept once
  d.Write("valid.tsv", "bob\tknows\t42\ncarol\tknows\tbob\n");
  d.Write("test.tsv", "42\tlikes\talice\nalice\thates\tbob\n");
  KgImportOptions o;
  o.train_file = d.File("train.tsv");
  o.valid_file = d.File("valid.tsv");
  o.test_file = d.File("test.tsv");
  Result<KgDataset> kg = ImportKg(o);
  INFO(kg.status().message());
  REQUIRE(kg.ok());
  CHECK(kg->entity_names == std::vector<std::string>{"alice", "bob", "42"});
  CHECK(kg->relation_names == std::vector<std::string>{"knows", "likes"});
  REQUIRE(kg->train.size() == 3);
  CHECK(kg->train[1] == Triple{1, 1, 2});  // bob likes 42: "42" is a name, id 2
  CHECK(kg->meta["train_duplicates"] == 1);
  REQUIRE(kg->valid.size() == 1);
  CHECK(kg->valid[0] == Triple{1, 0, 2});
  CHECK(kg->meta["valid_dropped"] == 1);  // carol is not in training
  REQUIRE(kg->test.size() == 1);
  CHECK(kg->test[0] == Triple{2, 1, 0});
  CHECK(kg->meta["test_dropped"] == 1);  // relation "hates" is not in training

  // The written directory is what the kge workload reads.
  TempDir out("kg-names-out");
  REQUIRE(WriteKgDataset(*kg, out.path()).ok());
  Result<KgDataset> back = ReadKgDataset(out.path());
  INFO(back.status().message());
  REQUIRE(back.ok());
  CHECK(back->entity_names == kg->entity_names);
  CHECK(back->train == kg->train);
  CHECK(back->test == kg->test);
}

TEST_CASE("kg import --split keeps every held-out id in training", "[data][import]") {
  TempDir d("kg-split");
  std::ostringstream text;
  for (int e = 0; e < 60; ++e)
    for (int r = 0; r < 2; ++r)
      text << 'e' << e << "\tr" << r << "\te" << (e * 7 + r + 1) % 60 << '\n';
  d.Write("all.tsv", text.str());
  KgImportOptions o;
  o.train_file = d.File("all.tsv");
  o.split_valid = 10;
  o.split_test = 15;
  o.seed = 4;
  Result<KgDataset> kg = ImportKg(o);
  REQUIRE(kg.ok());
  CHECK(kg->valid.size() == 10);
  CHECK(kg->test.size() == 15);
  CHECK(kg->train.size() == 120 - 25);
  std::vector<bool> entity(kg->num_entities()), relation(kg->num_relations());
  for (const Triple& t : kg->train) entity[t.head] = entity[t.tail] = relation[t.relation] = true;
  for (const auto* split : {&kg->valid, &kg->test})
    for (const Triple& t : *split) {
      CHECK(entity[t.head]);
      CHECK(entity[t.tail]);
      CHECK(relation[t.relation]);
    }
  Result<KgDataset> again = ImportKg(o);
  REQUIRE(again.ok());
  CHECK(again->test == kg->test);  // seeded
  CHECK(kg->meta["split_seed"] == 4);
}

TEST_CASE("kg import rejects malformed lines with FILE:LINE", "[data][import]") {
  TempDir d("kg-bad");
  struct Case {
    const char* text;
    const char* where;
    const char* what;
  };
  const Case cases[] = {
      {"a\tr\tb\na\tr\n", ":2: ", "got 2 fields"},
      {"a\tr\tb\tc\n", ":1: ", "got 4 fields"},
      {"a r b\n", ":1: ", "got 1 field"},
      {"#x\na\t\tb\n", ":2: ", "relation is empty"},
  };
  for (const Case& c : cases) {
    d.Write("train.tsv", c.text);
    KgImportOptions o;
    o.train_file = d.File("train.tsv");
    o.split_valid = o.split_test = 1;
    Result<KgDataset> kg = ImportKg(o);
    REQUIRE_FALSE(kg.ok());
    const std::string m = kg.status().message();
    INFO(m);
    CHECK(StartsWith(m, d.File("train.tsv") + c.where));
    CHECK(m.find(c.what) != std::string::npos);
  }
  d.Write("train.tsv", "a\tr\tb\n");
  d.Write("test.tsv", "a\tr\tb\nb\tr\n");
  KgImportOptions o;
  o.train_file = d.File("train.tsv");
  o.valid_file = d.File("train.tsv");
  o.test_file = d.File("test.tsv");
  Result<KgDataset> kg = ImportKg(o);
  REQUIRE_FALSE(kg.ok());
  CHECK(StartsWith(kg.status().message(), d.File("test.tsv") + ":2: "));
  o.test_file = d.File("missing.tsv");
  CHECK(StartsWith(ImportKg(o).status().message(), "cannot open " + d.File("missing.tsv")));
}

TEST_CASE("kg import: spaces, byte-order mark, header row, UTF-8, empty test split",
          "[data][import]") {
  TempDir d("kg-edges");
  d.Write("train.tsv",
          "\xEF\xBB\xBF"
          "head\trelation\ttail\n"
          "a\tr\tb\n"
          " a \tr \t c\n"
          "b\tr\tc\n"
          "c\tr\ta\n");
  d.Write("test.tsv", "Head\tRelation\tTail\nb\tr\ta\n");
  KgImportOptions o;
  o.train_file = d.File("train.tsv");
  o.valid_file = d.File("test.tsv");
  o.test_file = d.File("test.tsv");
  Result<KgDataset> kg = ImportKg(o);
  INFO(kg.status().message());
  REQUIRE(kg.ok());
  CHECK(kg->entity_names == std::vector<std::string>{"a", "b", "c"});
  CHECK(kg->relation_names == std::vector<std::string>{"r"});
  CHECK(kg->train.size() == 4);
  CHECK(kg->test.size() == 1);
  CHECK(kg->meta["headers_skipped"] == nlohmann::json{d.File("train.tsv") + ":1",
                                                      d.File("test.tsv") + ":1",
                                                      d.File("test.tsv") + ":1"});

  d.Write("bad.tsv", "a\tr\tb\na\tr\t\xC3\x28\n");
  o.train_file = d.File("bad.tsv");
  CHECK_THAT(ImportKg(o).status().message(),
             Catch::StartsWith(d.File("bad.tsv") + ":2: not valid UTF-8 (byte 5"));
  d.Write("blank.tsv", "a\t  \tb\n");
  o.train_file = d.File("blank.tsv");
  CHECK_THAT(ImportKg(o).status().message(), Catch::Contains(":1: relation is empty"));

  // Every test triple dropped: nothing would measure quality.
  o.train_file = d.File("train.tsv");
  d.Write("nobody.tsv", "x\tr\ty\n");
  o.test_file = d.File("nobody.tsv");
  CHECK_THAT(ImportKg(o).status().message(), Catch::Contains("the test split is empty"));
  KgImportOptions split;
  split.train_file = d.File("train.tsv");
  split.split_valid = 1;
  split.split_test = 0;
  CHECK_THAT(ImportKg(split).status().message(),
             Catch::Contains("the test split is empty: --split V,0"));
  d.Write("one.tsv", "a\tr\tb\n");  // a held-out triple would take a and b out of training
  split.train_file = d.File("one.tsv");
  split.split_valid = 0;
  split.split_test = 5;
  CHECK_THAT(ImportKg(split).status().message(),
             Catch::Contains("none of the 1 training triples can be held out"));
  // The validation split took what the test split needed: the message says so.
  std::string pairs;  // every ordered pair of 8 entities: most can be held out
  for (int h = 0; h < 8; ++h)
    for (int t = 0; t < 8; ++t)
      if (h != t) {
        pairs += 'e';
        pairs += std::to_string(h);
        pairs += "\tr\te";
        pairs += std::to_string(t);
        pairs += '\n';
      }
  d.Write("pairs.tsv", pairs);
  split.train_file = d.File("pairs.tsv");
  split.split_valid = 1000;
  split.split_test = 5;
  const std::string message = ImportKg(split).status().message();
  CHECK_THAT(message, Catch::Contains("the test split is empty"));
  CHECK_THAT(message, Catch::Contains("training triples left beside the"));
  CHECK_THAT(message, Catch::Contains("validation triples can be held out"));
}

// --- ratings -----------------------------------------------------------------

// The default share holds out one rating of the small files below.
Result<MfImport> ImportRatings(const TempDir& d, const std::string& text, double share = 0.3) {
  d.Write("ratings", text);
  return ImportMf({d.File("ratings"), share, 1});
}

TEST_CASE("mf import reads MatrixMarket coordinate files", "[data][import]") {
  TempDir d("mf-mm");
  Result<MfImport> m = ImportRatings(d,
                                     "%%MatrixMarket matrix coordinate real general\n"
                                     "% comment\n"
                                     "5 7 3\n"
                                     "2 7 4.5\n"
                                     "5 1 -1e0\n"
                                     "2 1 3\n");
  INFO(m.status().message());
  REQUIRE(m.ok());
  CHECK(m->meta["input_format"] == "MatrixMarket coordinate real general");
  CHECK(m->data.rows == 2);  // users 2 and 5, dense
  CHECK(m->data.cols == 2);  // items 7 and 1
  CHECK(m->users == std::vector<std::string>{"2", "5"});
  CHECK(m->items == std::vector<std::string>{"7", "1"});
  CHECK(m->data.train.size() == 2);
  REQUIRE(m->data.test.size() == 1);  // the one whose user and item keep a training rating
  CHECK(m->data.test[0].value == 3);
  Result<MfImport> i = ImportRatings(
      d, "%%matrixmarket MATRIX coordinate integer general\n2 2 3\n1 1 5\n1 2 4\n2 1 3\n");
  INFO(i.status().message());
  REQUIRE(i.ok());
  REQUIRE(i->data.test.size() == 1);
  CHECK(i->data.test[0].value == 5);
}

TEST_CASE("mf import rejects bad MatrixMarket files with FILE:LINE", "[data][import]") {
  TempDir d("mf-mm-bad");
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  struct Case {
    std::string text;
    const char* where;
    const char* what;
  };
  const Case cases[] = {
      {banner + "3 3 2\n1 1 1\n4 1 2\n", ":4: ", "row index '4' is outside 1..3"},
      {banner + "3 3 2\n1 0 1\n1 1 1\n", ":3: ", "column index '0' is outside 1..3"},
      {banner + "3 3 3\n1 1 1\n2 2 2\n", ":2: ", "declares 3 entries, the file has 2"},
      {banner + "3 3 1\n1 1 1\n2 2 2\n", ":4: ", "more entries than the 1"},
      {banner + "3 3 1\n1 1 x\n", ":3: ", "'x' is not a number"},
      {banner + "3 3 1\n1 1\n", ":3: ", "got 2 fields"},
      {banner + "3 3\n", ":2: ", "size line"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 1 1\n",
       ":1: ", "only '%%MatrixMarket matrix coordinate real|integer general'"},
      {"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1\n", ":1: ", "only"},
  };
  for (const Case& c : cases) {
    Result<MfImport> m = ImportRatings(d, c.text);
    REQUIRE_FALSE(m.ok());
    const std::string msg = m.status().message();
    INFO(msg);
    CHECK(StartsWith(msg, d.File("ratings") + c.where));
    CHECK(msg.find(c.what) != std::string::npos);
  }
}

TEST_CASE("mf import reads MovieLens ratings.csv and ratings.dat", "[data][import]") {
  TempDir d("mf-ml");
  const std::string csv =
      "userId,movieId,rating,timestamp\n"
      "1,31,2.5,1260759144\n"
      "1,1029,3.0,1260759179\n"
      "7,31,4.0,1260759185\r\n"  // CRLF tolerated
      "7,10,5,1260759205\n";
  Result<MfImport> c = ImportRatings(d, csv);
  INFO(c.status().message());
  REQUIRE(c.ok());
  CHECK(c->meta["input_format"] == "CSV");
  CHECK(c->meta["header"] == true);
  CHECK(c->users == std::vector<std::string>{"1", "7"});
  CHECK(c->items == std::vector<std::string>{"31", "1029", "10"});
  CHECK(c->header == "userId,movieId,rating,timestamp");
  CHECK(c->header_line == 1);
  CHECK(c->data.train.size() + c->data.test.size() == 4);
  float sum = 0;
  for (const auto* split : {&c->data.train, &c->data.test})
    for (const Rating& r : *split) sum += r.value;
  CHECK(sum == 14.5f);

  Result<MfImport> dat =
      ImportRatings(d, "1::1193::5::978300760\n1::661::3::978302109\n2::1193::4::1\n");
  REQUIRE(dat.ok());
  CHECK(dat->meta["input_format"] == "'::'-separated (MovieLens ratings.dat)");
  CHECK(dat->meta["header"] == false);
  CHECK(dat->data.rows == 2);
  CHECK(dat->data.cols == 2);
  CHECK(dat->data.train.size() + dat->data.test.size() == 3);
}

TEST_CASE("mf import reads TSV and headerless CSV, splits by seed", "[data][import]") {
  TempDir d("mf-tsv");
  Result<MfImport> t = ImportRatings(d, "u1\ti1\t1\nu2\ti1\t2\nu1\ti2\t3\n");
  REQUIRE(t.ok());
  CHECK(t->meta["input_format"] == "TSV");
  CHECK(t->meta["header"] == false);
  CHECK(t->data.train.size() == 2);
  REQUIRE(t->data.test.size() == 1);
  CHECK(t->data.test[0].value == 1.0f);  // the first line is data, not a header

  std::ostringstream csv;
  for (int u = 0; u < 40; ++u)
    for (int i = 0; i < 10; ++i) csv << u << ',' << i << ",1\n";
  Result<MfImport> s = ImportRatings(d, csv.str(), 0.25);
  REQUIRE(s.ok());
  CHECK(s->data.test.size() == 100);
  CHECK(s->data.train.size() == 300);
  std::vector<bool> row(s->data.rows), col(s->data.cols);
  for (const Rating& r : s->data.train) row[r.row] = col[r.col] = true;
  for (const Rating& r : s->data.test) CHECK((row[r.row] && col[r.col]));

  TempDir out("mf-tsv-out");
  REQUIRE(WriteMfImport(*s, out.path()).ok());
  Result<MfDataset> back = ReadMfDataset(out.path());
  INFO(back.status().message());
  REQUIRE(back.ok());
  CHECK(back->rows == 40);
  CHECK(back->cols == 10);
  CHECK(back->test.size() == 100);
  CHECK(fs::exists(out.File("users.tsv")));
}

TEST_CASE("mf import rejects bad separated lines with FILE:LINE", "[data][import]") {
  TempDir d("mf-csv-bad");
  struct Case {
    const char* text;
    const char* where;
    const char* what;
  };
  const Case cases[] = {
      {"userId,movieId,rating,timestamp\n1,2,3,4\n1,2,3\n", ":3: ", "expected 4 fields"},
      {"1,2,3\n1,2,three\n", ":2: ", "rating 'three' is not a number"},
      {"1,2,3\n1,2,nan\n", ":2: ", "'nan' is not a finite number"},
      {"1,2\n", ":1: ", "got 2 fields"},
      {"1::2::3\n1::2::3::4::5\n", ":2: ", "expected 3 fields"},
      {"1\t\t3\n", ":1: ", "item is empty"},
      {"1 2 3\n", ":1: ", "cannot tell the format"},
      // A malformed rating on the first line is not a header (B5).
      {"1,1,4x\n1,2,3\n", ":1: ", "rating '4x' is not a number"},
      {"1,1,1e40\n1,2,3\n", ":1: ", "rating '1e40' is out of range for a 32-bit float"},
      {"1,1,1e-50\n1,2,3\n", ":1: ", "rating '1e-50' underflows to 0 as a 32-bit float"},
      {"1,1,0x10\n1,2,3\n", ":1: ", "rating '0x10' is not a number"},
      {"1,2,good\n1,3,4\n", ":1: ", "rating 'good' is not a number"},
      {"u,i,nan\nu,j,3\n", ":1: ", "rating 'nan' is not a finite number"},
      {"1::1::4x\n1::2::3\n", ":1: ", "rating '4x' is not a number"},
      {"user::item::rating\n1::2::3\n", ":1: ", "rating 'rating' is not"},  // '::': no header
      {"1,1,4,\n", ":1: ", "timestamp (the 4th field) is empty"},
      {"1,1,4,5\n1,2,3,\n", ":2: ", "timestamp (the 4th field) is empty"},
  };
  for (const Case& c : cases) {
    Result<MfImport> m = ImportRatings(d, c.text);
    REQUIRE_FALSE(m.ok());
    const std::string msg = m.status().message();
    INFO(msg);
    CHECK(StartsWith(msg, d.File("ratings") + c.where));
    CHECK(msg.find(c.what) != std::string::npos);
  }
  CHECK_FALSE(ImportRatings(d, "userId,movieId,rating\n").ok());  // header only: no ratings
  CHECK_FALSE(ImportMf({d.File("ratings"), 1.0, 1}).ok());        // share out of range
}

TEST_CASE("mf import: header rows of column names, quoted or not, are skipped and told",
          "[data][import]") {
  TempDir d("mf-header");
  for (const std::string header :
       {"userId,movieId,rating,timestamp", "\"user_id\",\"item_id\",\"Rating\",\"ts\""}) {
    Result<MfImport> m =
        ImportRatings(d, "# exported\n" + header + "\n1,1,4,1\n1,2,3,2\n2,1,5,3\n2,2,1,4\n");
    INFO(m.status().message());
    REQUIRE(m.ok());
    CHECK(m->header == header);
    CHECK(m->header_line == 2);
    CHECK(m->data.train.size() + m->data.test.size() == 4);
  }
}

TEST_CASE("mf import: a byte-order mark, repeated cells, an empty test split", "[data][import]") {
  TempDir d("mf-edges");
  Result<MfImport> bom = ImportRatings(d,
                                       "\xEF\xBB\xBF"
                                       "1,1,4\n1,2,3\n2,1,5\n2,2,1\n");
  INFO(bom.status().message());
  REQUIRE(bom.ok());
  CHECK(bom->users == std::vector<std::string>{"1", "2"});  // not "\ufeff1" and "1"
  Result<MfImport> dup = ImportRatings(d, "a,x,1\na,x,2\na,y,3\nb,x,4\nb,y,5\na,x,9\n");
  REQUIRE(dup.ok());
  CHECK(dup->duplicates == 2);
  CHECK(dup->meta["duplicates"] == 2);
  CHECK(dup->data.train.size() + dup->data.test.size() == 4);
  float ax = -1;  // the first rating of (a, x) is kept
  for (const auto* split : {&dup->data.train, &dup->data.test})
    for (const Rating& r : *split)
      if (r.row == 0 && r.col == 0) ax = r.value;
  CHECK(ax == 1);
  // No rating can be held out: refused, saying why and what to do.
  Result<MfImport> tiny = ImportRatings(d, "1::1::5\n1::2::3\n2::3::4\n");
  REQUIRE_FALSE(tiny.ok());
  CHECK_THAT(tiny.status().message(),
             Catch::Contains("the test split is empty") && Catch::Contains("none can be held out"));
  Result<MfImport> few = ImportRatings(d, "a,x,1\na,y,2\nb,x,3\nb,y,4\n", 0.01);
  REQUIRE_FALSE(few.ok());
  CHECK_THAT(few.status().message(), Catch::Contains("--test-share 0.01 holds out none"));
  CHECK_THAT(ImportRatings(d, "a,x,1\na,y,2\nb,x,3\nb,y,4\n", 0).status().message(),
             Catch::Contains("--test-share must be in (0, 1)"));
}

TEST_CASE("mf reader: meta.json's format and counts must match the directory", "[data][import]") {
  TempDir in("mf-meta-in");
  Result<MfImport> m = ImportRatings(in, "a,x,1\na,y,2\nb,x,3\nb,y,4\n");
  REQUIRE(m.ok());
  TempDir out("mf-meta");
  REQUIRE(WriteMfImport(*m, out.path()).ok());
  REQUIRE(ReadMfDataset(out.path()).ok());
  nlohmann::json meta = *m->meta;
  meta["rows"] = 2;
  meta["cols"] = 2;
  meta["train"] = 3;
  meta["test"] = 1;
  meta["format"] = "augur-kg-1";
  out.Write("meta.json", meta.dump());
  CHECK_THAT(ReadMfDataset(out.path()).status().message(),
             Catch::Contains("meta.json: format \"augur-kg-1\" is not an mf directory's"));
  meta["format"] = "augur-mf-1";
  meta["train"] = 4;
  out.Write("meta.json", meta.dump());
  CHECK_THAT(
      ReadMfDataset(out.path()).status().message(),
      Catch::Contains("meta.json: 'train' is 4 but " + out.path() + "/train.tsv has 3 ratings"));
  meta.erase("train");  // a count not recorded is not checked
  out.Write("meta.json", meta.dump());
  CHECK(ReadMfDataset(out.path()).ok());
}

// --- text --------------------------------------------------------------------

TEST_CASE("text import: every line is a sentence, UTF-8 is checked", "[data][import]") {
  TempDir d("text-in");
  d.Write("a.txt", "The cat sat on the mat.\n\nOne\n# a hash line is text too\n");
  d.Write("b.txt", "Caf\xC3\xA9 au lait, s'il vous pla\xC3\xAEt\n");
  CorpusBuilder corpus;
  Result<uint64_t> lines = ImportText({d.File("a.txt"), d.File("b.txt")}, &corpus);
  INFO(lines.status().message());
  REQUIRE(lines.ok());
  CHECK(*lines == 5);
  CHECK(corpus.sentences() == 3);  // "" and "One" have fewer than two tokens
  TempDir out("text-out");
  REQUIRE(corpus.Write({{"source", "test"}}, out.path()).ok());
  Result<TextCorpus> c = ReadTextCorpus(out.path(), 1);
  REQUIRE(c.ok());
  CHECK(c->num_sentences() == 3);
  CHECK(c->words[0] == "the");  // 2 occurrences
  // "Café" splits at the non-ASCII letter: "caf"; "s'il" stays one token.
  CHECK(std::find(c->words.begin(), c->words.end(), "caf") != c->words.end());
  CHECK(std::find(c->words.begin(), c->words.end(), "s'il") != c->words.end());

  d.Write("bad.txt", "fine line here\nbad \xC3\x28 byte\n");
  CorpusBuilder bad;
  Result<uint64_t> b = ImportText({d.File("a.txt"), d.File("bad.txt")}, &bad);
  REQUIRE_FALSE(b.ok());
  CHECK(StartsWith(b.status().message(), d.File("bad.txt") + ":2: not valid UTF-8 (byte 5"));
  d.Write("empty.txt", "one\n\n");
  CorpusBuilder none;
  CHECK_FALSE(ImportText({d.File("empty.txt")}, &none).ok());
}

TEST_CASE("UTF-8 check rejects truncated, overlong and surrogate sequences", "[data][import]") {
  CHECK(FindInvalidUtf8("plain ascii") == std::string_view::npos);
  CHECK(FindInvalidUtf8("\xE2\x82\xAC \xF0\x9F\x98\x80") == std::string_view::npos);
  CHECK(FindInvalidUtf8("ab\xE2\x82") == 2);        // truncated
  CHECK(FindInvalidUtf8("\xC0\xAF") == 0);          // overlong '/'
  CHECK(FindInvalidUtf8("x\xED\xA0\x80") == 1);     // surrogate
  CHECK(FindInvalidUtf8("\xF4\x90\x80\x80") == 0);  // above U+10FFFF
  CHECK(FindInvalidUtf8("\xFF") == 0);
}

// --- staged output -----------------------------------------------------------

TEST_CASE("staged output directory: all or nothing", "[data][import]") {
  TempDir d("staged");
  const std::string out = d.File("out");
  {
    Result<StagedDir> s = StagedDir::Begin(out);
    REQUIRE(s.ok());
    std::ofstream(s->path() + "/train.tsv") << "partial\n";
    CHECK(fs::exists(s->path()));
  }  // no Commit: a failed import
  CHECK_FALSE(fs::exists(out));
  CHECK(fs::is_empty(d.path()));
  {
    Result<StagedDir> s = StagedDir::Begin(out + "/");
    REQUIRE(s.ok());
    std::ofstream(s->path() + "/meta.json") << "{\"format\": \"augur-mf-1\"}\n";
    REQUIRE(s->Commit().ok());
  }
  CHECK(fs::exists(out + "/meta.json"));
  {
    Result<StagedDir> s = StagedDir::Begin(out);  // an augur data set: replaced
    REQUIRE(s.ok());
    std::ofstream(s->path() + "/meta.json") << "{\"format\": \"augur-kg-1\"}\n";
    REQUIRE(s->Commit().ok());
  }
  std::ifstream meta(out + "/meta.json");
  std::string line;
  std::getline(meta, line);
  CHECK(line.find("augur-kg-1") != std::string::npos);
  d.Write("notes.txt", "mine");
  Result<StagedDir> refused = StagedDir::Begin(d.path());  // not a data set
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("is not an augur data set") != std::string::npos);
  CHECK(fs::exists(d.File("notes.txt")));
}

}  // namespace
}  // namespace augur

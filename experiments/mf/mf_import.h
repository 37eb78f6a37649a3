// ImportMf: a rating matrix from the files people keep ratings in.
//
// The format is detected from the first non-empty line:
//   %%MatrixMarket matrix coordinate real|integer general
//       then '%' comment lines, the size line `ROWS COLS ENTRIES`, and
//       ENTRIES lines `ROW COL VALUE` with 1-based indices in range;
//   a line containing "::"  MovieLens ratings.dat: user::item::rating[::timestamp];
//   a line containing TAB   TSV: user<TAB>item<TAB>rating[<TAB>timestamp];
//   a line containing ','   CSV: user,item,rating[,timestamp] (MovieLens ratings.csv).
// Separated files (CSV, TSV) may start with one header row, a first line
// whose fields all look like column names (a letter first, e.g.
// `userId,movieId,rating,timestamp`); a first line with a malformed rating
// (`1,1,4x`) is an error like any other line. Every line has the first
// line's field count; an empty field is an error; empty lines and lines
// starting with '#' are skipped. User and item names (any non-empty
// strings; MatrixMarket's indices) get dense row and column ids in
// first-seen order. A repeated (user, item) keeps its first rating; the
// others are dropped and counted (meta duplicates).
// Held out: a seeded `test_share` (in (0, 1)) of ratings whose user and
// item both keep a training rating (so every test cell has trained factors).
// Errors: "FILE:LINE: what is wrong" (wrong field count, an empty field, a
// rating that is not a finite number, an index outside the size line, an
// entry count that differs from the size line's), and an empty test split
// (nothing would measure quality), saying why. Threading: plain functions.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/mf/mf_dataset.h"
#include "experiments/report/json_value.h"

namespace augur {

struct MfImportOptions {
  std::string file;
  double test_share = 0.1;  // in (0, 1)
  uint64_t seed = 1;
};

struct MfImport {
  MfDataset data;
  std::vector<std::string> users, items;  // row id -> name, column id -> name
  JsonValue meta;                         // format, counts, source, header, split
  std::string header;                     // the header row skipped, if any
  uint64_t header_line = 0;               // its line number
  uint64_t duplicates = 0;                // repeated (user, item) ratings dropped
};

Result<MfImport> ImportMf(const MfImportOptions& options);

// Writes the mf directory format (train.tsv, test.tsv, meta.json) plus
// users.tsv and items.tsv (id<TAB>name) into dir.
Status WriteMfImport(const MfImport& data, const std::string& dir);

}  // namespace augur

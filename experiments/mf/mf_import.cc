#include "experiments/mf/mf_import.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/base/format_number.h"
#include "core/base/rng.h"
#include "core/config/number_text.h"
#include "experiments/data/ascii_lower.h"
#include "experiments/data/line_reader.h"
#include "experiments/data/name_ids.h"

namespace augur {

namespace {

std::string Quoted(std::string_view s) {
  std::string q(1, '\'');
  q.append(s.substr(0, 40));
  q.push_back('\'');
  return q;
}

// The ratings in file order; a repeated (user, item) keeps its first rating.
struct Cells {
  std::vector<Rating> all;
  std::vector<std::string> users, items;
  NameIds user_ids{&users}, item_ids{&items};
  std::unordered_set<uint64_t> seen;
  uint64_t duplicates = 0;
  Status Add(const LineReader& r, std::string_view user, std::string_view item, float value) {
    Rating x;
    if (!user_ids.Add(user, &x.row)) return r.Error("more than 2^30 users");
    if (!item_ids.Add(item, &x.col)) return r.Error("more than 2^30 items");
    x.value = value;
    if (!seen.insert(uint64_t{x.row} << 32 | x.col).second) {
      ++duplicates;
      return Status::Ok();
    }
    all.push_back(x);
    return Status::Ok();
  }
};

// A column name such as userId, "movie_id" or Rating: a letter or '_' first,
// then letters, digits, '_', '-', '.' or spaces; optionally in double quotes.
bool LooksLikeName(std::string_view f) {
  if (f.size() >= 2 && f.front() == '"' && f.back() == '"') f = f.substr(1, f.size() - 2);
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (f.empty() || !(letter(f[0]) || f[0] == '_')) return false;
  return std::all_of(f.begin(), f.end(), [&](char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == ' ';
  });
}

// A header row: every field is a column name, and the rating field is not a
// spelling of a non-finite number (nan, inf), which is a bad rating instead.
bool IsHeader(const std::vector<std::string_view>& f) {
  const std::string rating = AsciiLower(f[2]);
  if (rating == "nan" || rating == "inf" || rating == "infinity") return false;
  return std::all_of(f.begin(), f.end(), LooksLikeName);
}

// After the %%MatrixMarket line: comments, the size line, the entries.
Status ReadMatrixMarket(LineReader& r, const std::string& banner, Cells* cells,
                        nlohmann::json* meta) {
  const auto b = SplitWhitespace(banner);
  if (b.size() != 5 || AsciiLower(b[1]) != "matrix" || AsciiLower(b[2]) != "coordinate" ||
      (AsciiLower(b[3]) != "real" && AsciiLower(b[3]) != "integer") ||
      AsciiLower(b[4]) != "general")
    return r.Error(
        "only '%%MatrixMarket matrix coordinate real|integer general' is supported, got " +
        Quoted(banner));
  (*meta)["input_format"] = "MatrixMarket coordinate " + AsciiLower(b[3]) + " general";
  std::string line;
  uint64_t rows = 0, cols = 0, entries = 0, size_line = 0, seen = 0;
  while (r.Next(&line)) {
    if (line.empty() || line[0] == '%') continue;
    const auto f = SplitWhitespace(line);
    if (f.empty()) continue;
    if (size_line == 0) {
      if (f.size() != 3 || !ParseU64(f[0], &rows) || !ParseU64(f[1], &cols) ||
          !ParseU64(f[2], &entries))
        return r.Error("expected the size line 'ROWS COLS ENTRIES' (three integers)");
      if (rows == 0 || cols == 0 || rows > NameIds::kMaxIds || cols > NameIds::kMaxIds)
        return r.Error("ROWS and COLS in the size line must be in [1, 2^30]");
      size_line = r.line_number();
      continue;
    }
    uint64_t i = 0, j = 0;
    float v = 0;
    if (f.size() != 3)
      return r.Error("expected 'ROW COL VALUE', got " + std::to_string(f.size()) + " fields");
    if (!ParseU64(f[0], &i) || i == 0 || i > rows)
      return r.Error("row index " + Quoted(f[0]) + " is outside 1.." + std::to_string(rows) +
                     " (size line " + std::to_string(size_line) + ")");
    if (!ParseU64(f[1], &j) || j == 0 || j > cols)
      return r.Error("column index " + Quoted(f[1]) + " is outside 1.." + std::to_string(cols) +
                     " (size line " + std::to_string(size_line) + ")");
    Result<float> value = ParseFloatNumber(f[2]);
    if (!value.ok()) return r.Error("value " + value.status().message());
    v = *value;
    if (++seen > entries)
      return r.Error("more entries than the " + std::to_string(entries) +
                     " of the size line (line " + std::to_string(size_line) + ")");
    if (Status s = cells->Add(r, f[0], f[1], v); !s.ok()) return s;
  }
  if (!r.status().ok()) return r.status();
  if (size_line == 0) return r.Error("no size line 'ROWS COLS ENTRIES' after the banner");
  if (seen != entries)
    return Status::Error(r.path() + ":" + std::to_string(size_line) + ": the size line declares " +
                         std::to_string(entries) + " entries, the file has " +
                         std::to_string(seen));
  (*meta)["declared_rows"] = rows;
  (*meta)["declared_cols"] = cols;
  return Status::Ok();
}

// Separated ratings, starting at `first` (the first non-comment line).
// A header row goes to header (and its line number to header_line).
Status ReadSeparated(LineReader& r, std::string first, Cells* cells, nlohmann::json* meta,
                     std::string* header, uint64_t* header_line) {
  std::string sep, name;
  if (first.find("::") != std::string::npos) {
    sep = "::";
    name = "'::'-separated (MovieLens ratings.dat)";
  } else if (first.find('\t') != std::string::npos) {
    sep = "\t";
    name = "TSV";
  } else if (first.find(',') != std::string::npos) {
    sep = ",";
    name = "CSV";
  } else {
    return r.Error(
        "cannot tell the format: expected a %%MatrixMarket banner or user,item,rating "
        "separated by ',', TAB or '::'");
  }
  const std::string shown = sep == "\t" ? "<TAB>" : sep;
  const std::string expected = "user" + shown + "item" + shown + "rating[" + shown + "timestamp]";
  (*meta)["input_format"] = name;
  size_t fields = 0;
  std::string line = std::move(first);
  do {
    if (line.empty() || line[0] == '#') continue;
    const auto f = SplitOn(line, sep);
    if (fields == 0) {
      if (f.size() < 3 || f.size() > 4)
        return r.Error("expected " + expected + ", got " + std::to_string(f.size()) + " fields");
      fields = f.size();
      // The '::' format (MovieLens ratings.dat) has no header row.
      if (sep != "::" && IsHeader(f)) {  // e.g. userId,movieId,rating,timestamp
        *header = line;
        *header_line = r.line_number();
        continue;
      }
    }
    if (f.size() != fields)
      return r.Error("expected " + std::to_string(fields) + " fields (" + expected + ") like the " +
                     (header->empty() ? "first line" : "header") + ", got " +
                     std::to_string(f.size()));
    if (f[0].empty()) return r.Error("user is empty");
    if (f[1].empty()) return r.Error("item is empty");
    if (fields == 4 && f[3].empty()) return r.Error("timestamp (the 4th field) is empty");
    Result<float> v = ParseFloatNumber(f[2]);
    if (!v.ok()) return r.Error("rating " + v.status().message());
    if (Status s = cells->Add(r, f[0], f[1], *v); !s.ok()) return s;
  } while (r.Next(&line));
  if (!r.status().ok()) return r.status();
  (*meta)["header"] = !header->empty();
  return Status::Ok();
}

// Seeded hold-out: in a seeded order, a rating is held out while the quota
// lasts if its user and item both keep another rating in training. Both
// splits keep the file's order.
void Split(const std::vector<Rating>& all, uint32_t rows, uint32_t cols, double share,
           uint64_t seed, MfDataset* out) {
  std::vector<uint32_t> row_left(rows, 0), col_left(cols, 0);
  for (const Rating& x : all) {
    ++row_left[x.row];
    ++col_left[x.col];
  }
  const uint64_t quota =
      static_cast<uint64_t>(std::llround(share * static_cast<double>(all.size())));
  std::vector<bool> held(all.size(), false);
  if (quota > 0) {
    std::vector<size_t> order(all.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    Rng rng(DeriveSeed(seed, 0x3F17));
    Shuffle(&order, rng);
    uint64_t taken = 0;
    for (size_t i : order) {
      if (taken == quota) break;
      const Rating& x = all[i];
      if (row_left[x.row] > 1 && col_left[x.col] > 1) {
        --row_left[x.row];
        --col_left[x.col];
        held[i] = true;
        ++taken;
      }
    }
  }
  for (size_t i = 0; i < all.size(); ++i) (held[i] ? out->test : out->train).push_back(all[i]);
}

std::string NamesTsv(const std::vector<std::string>& names, const char* header) {
  std::ostringstream o;
  o << "# id\t" << header << "\n";
  for (size_t i = 0; i < names.size(); ++i) o << i << '\t' << names[i] << '\n';
  return o.str();
}

}  // namespace

Result<MfImport> ImportMf(const MfImportOptions& o) {
  if (!(o.test_share > 0 && o.test_share < 1))
    return Status::Error(
        "--test-share must be in (0, 1): the test ratings are what measures quality");
  Result<LineReader> r = LineReader::Open(o.file);
  if (!r.ok()) return r.status();
  MfImport out;
  out.meta = {{"format", "augur-mf-1"}, {"source", o.file}};
  Cells cells;
  std::string line;
  bool any = false;
  while (r->Next(&line)) {
    if (line.empty() || (line[0] == '#')) continue;
    any = true;
    Status s = AsciiLower(line.substr(0, 14)) == "%%matrixmarket"
                   ? ReadMatrixMarket(*r, line, &cells, &*out.meta)
                   : ReadSeparated(*r, line, &cells, &*out.meta, &out.header, &out.header_line);
    if (!s.ok()) return s;
    break;
  }
  if (!r->status().ok()) return r->status();
  if (!any || cells.all.empty()) return Status::Error(o.file + ": no ratings");
  out.data.rows = static_cast<uint32_t>(cells.users.size());
  out.data.cols = static_cast<uint32_t>(cells.items.size());
  Split(cells.all, out.data.rows, out.data.cols, o.test_share, o.seed, &out.data);
  if (out.data.test.empty())
    return Status::Error(
        o.file + ": the test split is empty: of " + std::to_string(cells.all.size()) +
        " ratings, " +
        (std::llround(o.test_share * static_cast<double>(cells.all.size())) == 0
             ? "--test-share " + FormatNumber(o.test_share) + " holds out none"
             : std::string("none can be held out (a test rating's user and item must both keep "
                           "a training rating)")) +
        "; the test ratings are what measures quality: give more ratings or a larger "
        "--test-share");
  out.duplicates = cells.duplicates;
  out.users = std::move(cells.users);
  out.items = std::move(cells.items);
  out.meta["rows"] = out.data.rows;
  out.meta["cols"] = out.data.cols;
  out.meta["train"] = out.data.train.size();
  out.meta["test"] = out.data.test.size();
  out.meta["duplicates"] = cells.duplicates;
  out.meta["test_share"] = o.test_share;
  out.meta["seed"] = o.seed;
  return out;
}

Status WriteMfImport(const MfImport& d, const std::string& dir) {
  if (Status s = WriteMfDataset(d.data, d.meta, dir); !s.ok()) return s;
  if (Status s = WriteTextFile(dir + "/users.tsv", NamesTsv(d.users, "user")); !s.ok()) return s;
  return WriteTextFile(dir + "/items.tsv", NamesTsv(d.items, "item"));
}

}  // namespace augur

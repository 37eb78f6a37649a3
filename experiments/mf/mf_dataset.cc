#include "experiments/mf/mf_dataset.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>

#include "core/base/rng.h"
#include "core/config/number_text.h"
#include "experiments/data/line_reader.h"
#include "experiments/zipf/zipf_sampler.h"

namespace augur {

namespace {

constexpr uint32_t kMaxDim = 1u << 30;

double Normal(Rng& rng) {
  const double u1 = 1.0 - rng.Uniform(), u2 = rng.Uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

void Factor(uint64_t seed, uint64_t id, uint32_t rank, std::vector<double>* out) {
  Rng rng(DeriveSeed(seed, id));
  out->resize(rank);
  for (double& x : *out) x = Normal(rng) / std::sqrt(static_cast<double>(rank));
}

std::string RatingsTsv(const std::vector<Rating>& ratings) {
  std::ostringstream o;
  o << "# row\tcol\tvalue\n";
  for (const Rating& r : ratings) o << r.row << '\t' << r.col << '\t' << r.value << '\n';
  return o.str();
}

Status ReadRatings(const std::string& path, uint32_t rows, uint32_t cols,
                   std::vector<Rating>* out) {
  Result<LineReader> r = LineReader::Open(path);
  if (!r.ok()) return r.status();
  std::string line;
  while (r->Next(&line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = SplitOn(line, '\t');
    Rating x;
    if (f.size() != 3) return r->Error("expected row<TAB>col<TAB>value");
    if (!ParseU32(f[0], &x.row) || x.row >= rows)
      return r->Error("row must be an integer below " + std::to_string(rows));
    if (!ParseU32(f[1], &x.col) || x.col >= cols)
      return r->Error("col must be an integer below " + std::to_string(cols));
    Result<float> value = ParseFloatNumber(f[2]);
    if (!value.ok()) return r->Error("value " + value.status().message());
    x.value = *value;
    out->push_back(x);
  }
  return r->status();
}

}  // namespace

Result<MfDataset> GenerateMf(const MfGenOptions& o) {
  if (o.rows == 0 || o.cols == 0 || o.nnz == 0)
    return Status::Error("--rows, --cols and --nnz must be at least 1");
  if (o.rows > kMaxDim || o.cols > kMaxDim) return Status::Error("--rows/--cols must be < 2^30");
  if (static_cast<double>(o.nnz) > 0.5 * o.rows * static_cast<double>(o.cols))
    return Status::Error("--nnz must be at most half of rows*cols");
  if (!(o.skew >= 0 && std::isfinite(o.skew)))
    return Status::Error("--skew must be a finite number >= 0");
  if (!(o.test_fraction > 0 && o.test_fraction < 1))
    return Status::Error(
        "--test-share must be in (0, 1): the test cells are what measures quality");
  if (o.true_rank == 0 || o.true_rank > 16384) return Status::Error("--rank must be in [1, 16384]");
  if (!(o.noise >= 0 && std::isfinite(o.noise)))
    return Status::Error("--noise must be a finite number >= 0 (a standard deviation)");
  ZipfSampler row_zipf(o.rows, o.skew), col_zipf(o.cols, o.skew);
  Rng rng(DeriveSeed(o.seed, 0x3F));
  std::unordered_set<uint64_t> cells;
  cells.reserve(o.nnz * 2);
  MfDataset d;
  d.rows = o.rows;
  d.cols = o.cols;
  std::vector<double> u, v;
  while (cells.size() < o.nnz) {
    const uint32_t row = static_cast<uint32_t>(row_zipf.Draw(rng));
    uint32_t col = static_cast<uint32_t>(col_zipf.Draw(rng));
    for (int attempt = 0; attempt < 64 && cells.count(uint64_t{row} * o.cols + col); ++attempt)
      col = static_cast<uint32_t>(rng.Below(o.cols));
    if (!cells.insert(uint64_t{row} * o.cols + col).second) continue;  // row full: draw again
    Factor(o.seed, row, o.true_rank, &u);
    Factor(o.seed, (1ull << 40) + col, o.true_rank, &v);
    double value = o.noise * Normal(rng);
    for (uint32_t k = 0; k < o.true_rank; ++k) value += u[k] * v[k];
    const Rating r{row, col, static_cast<float>(value)};
    (rng.Uniform() < o.test_fraction ? d.test : d.train).push_back(r);
  }
  return d;
}

Status WriteMfDataset(const MfDataset& d, const MfGenOptions& o, const std::string& dir) {
  return WriteMfDataset(d,
                        nlohmann::json{{"format", "augur-mf-1"},
                                       {"source", "augur data mf (Zipf-skewed synthetic matrix)"},
                                       {"skew", o.skew},
                                       {"true_rank", o.true_rank},
                                       {"noise", o.noise},
                                       {"seed", o.seed}},
                        dir);
}

Status WriteMfDataset(const MfDataset& d, nlohmann::json meta, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  meta["rows"] = d.rows;
  meta["cols"] = d.cols;
  meta["train"] = d.train.size();
  meta["test"] = d.test.size();
  if (Status s = WriteTextFile(dir + "/train.tsv", RatingsTsv(d.train)); !s.ok()) return s;
  if (Status s = WriteTextFile(dir + "/test.tsv", RatingsTsv(d.test)); !s.ok()) return s;
  return WriteTextFile(dir + "/meta.json", meta.dump(2) + "\n");
}

Result<MfDataset> ReadMfDataset(const std::string& dir) {
  const std::string meta_path = dir + "/meta.json";
  Result<LineReader> r = LineReader::Open(meta_path);
  if (!r.ok()) return r.status();
  std::string text, line;
  while (r->Next(&line)) text += line + "\n";
  if (!r->status().ok()) return r->status();
  const nlohmann::json meta = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (meta.is_discarded() || !meta.is_object())
    return Status::Error(meta_path + ": not valid JSON");
  if (auto f = meta.find("format");
      f != meta.end() && (!f->is_string() || f->get<std::string>() != "augur-mf-1"))
    return Status::Error(meta_path + ": format " + f->dump() +
                         " is not an mf directory's (augur-mf-1): a data set of another "
                         "workload? (augur data mf writes mf directories)");
  MfDataset d;
  for (auto [name, out] : {std::pair{"rows", &d.rows}, std::pair{"cols", &d.cols}}) {
    auto it = meta.find(name);
    if (it == meta.end() || !it->is_number_unsigned() || it->get<uint64_t>() == 0 ||
        it->get<uint64_t>() > kMaxDim)
      return Status::Error(meta_path + ": '" + name + "' must be an integer in [1, 2^30]");
    *out = static_cast<uint32_t>(it->get<uint64_t>());
  }
  if (Status s = ReadRatings(dir + "/train.tsv", d.rows, d.cols, &d.train); !s.ok()) return s;
  if (Status s = ReadRatings(dir + "/test.tsv", d.rows, d.cols, &d.test); !s.ok()) return s;
  if (d.train.empty()) return Status::Error(dir + "/train.tsv: no ratings");
  // The counts meta.json records, where it records them, are what the files hold.
  for (auto [name, got] : {std::pair{"train", d.train.size()}, std::pair{"test", d.test.size()}}) {
    auto it = meta.find(name);
    if (it == meta.end()) continue;
    if (!it->is_number_unsigned() || it->get<uint64_t>() != got)
      return Status::Error(meta_path + ": '" + name + "' is " + it->dump() + " but " + dir + "/" +
                           name + ".tsv has " + std::to_string(got) +
                           " ratings: the directory was changed after augur data wrote it");
  }
  return d;
}

}  // namespace augur

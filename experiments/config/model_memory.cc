#include "experiments/config/model_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace augur {

namespace {

constexpr double kFloatBytes = 4;
// A rating of mf's generated matrix: row, column, value (mf/mf_dataset.h Rating).
constexpr double kRatingBytes = 12;

// "64.1 TB", "25.3 GB", "512 kB" (decimal units, 3 significant digits).
std::string Bytes(double b) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  size_t u = 0;
  while (b >= 1000 && u + 1 < std::size(units)) {
    b /= 1000;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.3g %s", b, units[u]);
  return buf;
}

// "1,638,432,768,000"; past 1e18, "1.64e+21".
std::string Count(double v) {
  char buf[48];
  if (v >= 1e18) {
    std::snprintf(buf, sizeof(buf), "%.3g", v);
    return buf;
  }
  std::snprintf(buf, sizeof(buf), "%.0f", v);
  std::string digits = buf, out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

ModelSize ModelSizeOf(const ValueLayout& layout, const OptimizerConfig& optimizer,
                      const std::string& sized_by) {
  ModelSize m;
  for (const ValueLayout::Range& r : layout.ranges()) {
    const double keys = static_cast<double>(r.end - r.begin);
    m.rows += keys;
    m.floats += keys * r.length;
  }
  m.state_rows = optimizer.StateRows();
  m.sized_by = sized_by;
  return m;
}

std::optional<ModelSize> ModelSizeFromFlags(const RunConfig& c) {
  ModelSize m;
  if (c.workload == "zipf") {
    m.rows = static_cast<double>(c.zipf.keys);
    m.floats = m.rows * c.zipf.dim;
    m.sized_by = "--keys " + std::to_string(c.zipf.keys) + ", --dim " + std::to_string(c.zipf.dim);
    return m;  // sums: no optimizer state
  }
  if (c.workload == "mf" && c.data_dir.empty()) {
    const MfOptions& o = c.mf;
    m.rows = static_cast<double>(o.gen_rows) + o.gen_cols;
    m.floats = m.rows * o.rank;
    m.data_bytes = kRatingBytes * static_cast<double>(o.gen_nnz);
    m.sized_by = "--dim " + std::to_string(o.rank) + ", --mf-rows " + std::to_string(o.gen_rows) +
                 ", --mf-cols " + std::to_string(o.gen_cols) + ", --mf-nnz " +
                 std::to_string(o.gen_nnz);
    return m;  // SGD: no optimizer state
  }
  return std::nullopt;
}

double ModelBytes(const ModelSize& m) {
  return m.floats * kFloatBytes * (1.0 + m.state_rows) + m.data_bytes;
}

Status CheckModelMemory(const RunConfig& c, const ModelSize& m, double machine_bytes,
                        uint32_t nodes_here) {
  // tcp: a process per node, each the home of 1/nodes of the keys; the
  // other backends hold every node in this process.
  const bool shared = c.backend == "tcp" && c.nodes > 1;
  const double share = shared ? static_cast<double>(std::min(nodes_here, c.nodes)) / c.nodes : 1.0;
  const double here = ModelBytes(m) * share;
  if (machine_bytes <= 0 || here <= machine_bytes) return Status::Ok();
  std::string what = "the model needs";
  if (shared && nodes_here <= 1) {
    what = "one node's share (1/" + std::to_string(c.nodes) + ") of the model needs";
  } else if (shared) {
    what = "the " + std::to_string(std::min(nodes_here, c.nodes)) +
           " local ranks' shares of the model need";
  } else if (c.nodes > 1) {
    what = "the model (all " + std::to_string(c.nodes) + " nodes in this process) needs";
  }
  std::string detail = Count(m.rows) + " rows, " + Count(m.floats) + " floats of 4 bytes";
  if (m.state_rows > 0)
    detail += ", x" + std::to_string(1 + m.state_rows) + " with its optimizer state";
  if (m.data_bytes > 0) detail += ", and " + Bytes(m.data_bytes) + " of generated ratings";
  return Status::Error(what + " at least " + Bytes(here) + " of memory (" + detail + "; " +
                       m.sized_by + "), more than this machine's " + Bytes(machine_bytes) +
                       ": make the model smaller");
}

double PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page);
}

Status CheckFlagModelMemory(const RunConfig& config, uint32_t nodes_here) {
  const std::optional<ModelSize> m = ModelSizeFromFlags(config);
  if (!m.has_value()) return Status::Ok();
  return CheckModelMemory(config, *m, PhysicalMemoryBytes(), nodes_here);
}

Status CheckLoadedModelMemory(const RunConfig& config, const ValueLayout& layout,
                              const OptimizerConfig& optimizer) {
  std::string sized_by;
  if (std::optional<ModelSize> flags = ModelSizeFromFlags(config); flags.has_value()) {
    sized_by = flags->sized_by;
  } else {
    const uint32_t dim = config.workload == "kge"  ? config.kge.dim
                         : config.workload == "wv" ? config.wv.dim
                                                   : config.mf.rank;
    sized_by = "--dim " + std::to_string(dim) + " on the rows of " +
               (config.data_dir.empty() ? std::string("the cached data set") : config.data_dir);
  }
  ModelSize m = ModelSizeOf(layout, optimizer, sized_by);
  if (const std::optional<ModelSize> flags = ModelSizeFromFlags(config); flags.has_value())
    m.data_bytes = flags->data_bytes;
  return CheckModelMemory(config, m, PhysicalMemoryBytes());
}

}  // namespace augur

#include "experiments/checkpoint/checkpoint_format.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

namespace augur {

namespace {

constexpr char kMagic[8] = {'A', 'U', 'G', 'C', 'K', 'P', 'T', '1'};
constexpr size_t kFileHeaderBytes = 8 + 4 + 4 + 8;
constexpr uint32_t kMaxRowFloats = 1u << 24;

void PutLe(std::vector<uint8_t>* out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> b) : b_(b) {}
  bool Le(uint64_t* v, int n) {
    if (b_.size() - at_ < static_cast<size_t>(n)) return false;
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= uint64_t{b_[at_ + i]} << (8 * i);
    at_ += n;
    *v = x;
    return true;
  }
  bool Floats(float* out, size_t count) {
    if (count == 0) return true;  // out may be null (an empty vector); fuzzing found the memcpy
    if ((b_.size() - at_) / 4 < count) return false;
    std::memcpy(out, b_.data() + at_, count * 4);  // little-endian hosts only (x86, arm64)
    at_ += count * 4;
    return true;
  }
  size_t left() const { return b_.size() - at_; }

 private:
  std::span<const uint8_t> b_;
  size_t at_ = 0;
};

std::string Hex64(uint64_t v) {
  static const char* kDigits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = kDigits[v & 15];
  return s;
}

bool ParseHex64(const std::string& s, uint64_t* out) {
  if (s.size() != 16) return false;
  uint64_t v = 0;
  for (char ch : s) {
    int d = -1;
    if (ch >= '0' && ch <= '9') d = ch - '0';
    if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
    if (d < 0) return false;
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  *out = v;
  return true;
}

template <typename T>
bool GetUnsigned(const nlohmann::json& j, const char* name, T* out) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_number_unsigned()) return false;
  const uint64_t v = it->template get<uint64_t>();
  if (v > std::numeric_limits<T>::max()) return false;
  *out = static_cast<T>(v);
  return true;
}

Result<CheckpointFile> FileFromJson(const nlohmann::json& j, size_t index) {
  const std::string where = "manifest files[" + std::to_string(index) + "]";
  if (!j.is_object()) return Status::Error(where + " is not an object");
  CheckpointFile f;
  auto name = j.find("name");
  if (name == j.end() || !name->is_string()) return Status::Error(where + ": 'name' missing");
  f.name = name->get<std::string>();
  if (!GetUnsigned(j, "node", &f.node) || !GetUnsigned(j, "bytes", &f.bytes) ||
      !GetUnsigned(j, "rows", &f.rows) || !GetUnsigned(j, "min_key", &f.min_key) ||
      !GetUnsigned(j, "max_key", &f.max_key))
    return Status::Error(where + ": node, bytes, rows, min_key and max_key must be integers");
  auto sum = j.find("fnv1a64");
  if (sum == j.end() || !sum->is_string() || !ParseHex64(sum->get<std::string>(), &f.fnv1a64))
    return Status::Error(where + ": 'fnv1a64' must be 16 lowercase hex digits");
  return f;
}

}  // namespace

uint64_t Fnv1a64(std::span<const uint8_t> bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

std::string NodeFileName(uint32_t node) { return "node-" + std::to_string(node) + ".rows"; }

nlohmann::json CheckpointManifest::ToJson() const {
  nlohmann::json fs = nlohmann::json::array();
  for (const CheckpointFile& f : files) {
    fs.push_back({{"name", f.name},
                  {"node", f.node},
                  {"bytes", f.bytes},
                  {"rows", f.rows},
                  {"min_key", f.min_key},
                  {"max_key", f.max_key},
                  {"fnv1a64", Hex64(f.fnv1a64)}});
  }
  return {{"format", kCheckpointFormat},
          {"version", version},
          {"nodes", nodes},
          {"workers", workers},
          {"epoch", epoch},
          {"clock", clock},
          {"taken_at_seconds", taken_at_seconds},
          {"workload", workload},
          {"fingerprint", fingerprint},
          {"files", fs}};
}

Result<CheckpointManifest> CheckpointManifest::FromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::Error("manifest is not a JSON object");
  auto format = j.find("format");
  if (format == j.end() || *format != kCheckpointFormat)
    return Status::Error(std::string("manifest 'format' is not '") + kCheckpointFormat + "'");
  CheckpointManifest m;
  if (!GetUnsigned(j, "version", &m.version)) return Status::Error("manifest 'version' missing");
  if (m.version != kCheckpointVersion)
    return Status::Error("manifest has format version " + std::to_string(m.version) +
                         ", this build reads version " + std::to_string(kCheckpointVersion));
  if (!GetUnsigned(j, "nodes", &m.nodes) || !GetUnsigned(j, "workers", &m.workers) ||
      !GetUnsigned(j, "epoch", &m.epoch) || !GetUnsigned(j, "clock", &m.clock))
    return Status::Error("manifest: nodes, workers, epoch and clock must be integers");
  if (auto at = j.find("taken_at_seconds"); at != j.end()) {  // optional
    if (!at->is_number()) return Status::Error("manifest 'taken_at_seconds' is not a number");
    m.taken_at_seconds = at->get<double>();
  }
  if (m.nodes == 0 || m.nodes > (1u << 16) || m.workers == 0)
    return Status::Error("manifest: nodes must be in [1, 65536] and workers at least 1");
  auto workload = j.find("workload");
  auto fingerprint = j.find("fingerprint");
  auto files = j.find("files");
  if (workload == j.end() || !workload->is_string() || fingerprint == j.end() ||
      !fingerprint->is_object() || files == j.end() || !files->is_array())
    return Status::Error("manifest: 'workload', 'fingerprint' or 'files' missing");
  m.workload = workload->get<std::string>();
  m.fingerprint = *fingerprint;
  if (files->size() != m.nodes)
    return Status::Error("manifest says nodes " + std::to_string(m.nodes) + " but lists " +
                         std::to_string(files->size()) + " node files");
  for (size_t i = 0; i < files->size(); ++i) {
    Result<CheckpointFile> f = FileFromJson((*files)[i], i);
    if (!f.ok()) return f.status();
    if (f->node != i || f->name != NodeFileName(static_cast<uint32_t>(i)))
      return Status::Error("manifest files[" + std::to_string(i) + "] is not " +
                           NodeFileName(static_cast<uint32_t>(i)) + " of node " +
                           std::to_string(i));
    m.files.push_back(std::move(*f));
  }
  return m;
}

std::vector<uint8_t> EncodeNodeRows(uint32_t node, const std::vector<CheckpointRow>& rows,
                                    CheckpointFile* file) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof(kMagic));
  PutLe(&out, kCheckpointVersion, 4);
  PutLe(&out, node, 4);
  PutLe(&out, rows.size(), 8);
  file->node = node;
  file->name = NodeFileName(node);
  file->rows = rows.size();
  file->min_key = rows.empty() ? 0 : rows[0].key;
  file->max_key = file->min_key;
  for (const CheckpointRow& r : rows) {
    PutLe(&out, r.key, 8);
    PutLe(&out, r.floats.size(), 4);
    const size_t at = out.size();
    out.resize(at + r.floats.size() * 4);
    if (!r.floats.empty()) std::memcpy(out.data() + at, r.floats.data(), r.floats.size() * 4);
    file->min_key = std::min(file->min_key, r.key);
    file->max_key = std::max(file->max_key, r.key);
  }
  file->bytes = out.size();
  file->fnv1a64 = Fnv1a64(out);
  return out;
}

Status DecodeNodeRows(std::span<const uint8_t> bytes, const CheckpointFile& file,
                      std::vector<CheckpointRow>* out) {
  if (bytes.size() != file.bytes)
    return Status::Error("size " + std::to_string(bytes.size()) + " bytes, the manifest says " +
                         std::to_string(file.bytes) + " (truncated or replaced?)");
  const uint64_t sum = Fnv1a64(bytes);
  if (sum != file.fnv1a64)
    return Status::Error("checksum " + Hex64(sum) + " does not match the manifest's " +
                         Hex64(file.fnv1a64) + " (corrupted)");
  if (bytes.size() < kFileHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return Status::Error("not an augur checkpoint row file (bad magic)");
  Cursor c(bytes.subspan(sizeof(kMagic)));
  uint64_t version = 0, node = 0, rows = 0;
  c.Le(&version, 4);
  c.Le(&node, 4);
  c.Le(&rows, 8);
  if (version != kCheckpointVersion)
    return Status::Error("row file version " + std::to_string(version) + ", expected " +
                         std::to_string(kCheckpointVersion));
  if (node != file.node) return Status::Error("holds node " + std::to_string(node) + "'s rows");
  if (rows != file.rows || rows > c.left() / 12)
    return Status::Error("declares " + std::to_string(rows) + " rows, the manifest says " +
                         std::to_string(file.rows));
  for (uint64_t i = 0; i < rows; ++i) {
    uint64_t key = 0, floats = 0;
    if (!c.Le(&key, 8) || !c.Le(&floats, 4) || floats > kMaxRowFloats)
      return Status::Error("row " + std::to_string(i) + ": bad header");
    if (key < file.min_key || key > file.max_key)
      return Status::Error("row " + std::to_string(i) + ": key outside the manifest's range");
    CheckpointRow r{key, std::vector<float>(floats)};
    if (!c.Floats(r.floats.data(), floats))
      return Status::Error("row " + std::to_string(i) + ": truncated");
    out->push_back(std::move(r));
  }
  if (c.left() != 0) return Status::Error(std::to_string(c.left()) + " trailing bytes");
  return Status::Ok();
}

}  // namespace augur

#include "experiments/checkpoint/checkpoint_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

namespace augur {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxFileBytes = uint64_t{1} << 36;

std::string Errno() { return std::strerror(errno); }

Status SyncPath(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) return Status::Error("cannot open " + path + ": " + Errno());
  const bool ok = ::fsync(fd) == 0;
  const std::string why = ok ? "" : Errno();
  ::close(fd);
  if (!ok) return Status::Error("cannot fsync " + path + ": " + why);
  return Status::Ok();
}

// Writes `bytes` to path via path.part: write, fsync, rename, fsync the directory.
Status WriteDurably(const std::string& path, const void* bytes, size_t size) {
  const std::string part = path + ".part";
  const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error("cannot create " + part + ": " + Errno());
  const char* p = static_cast<const char*>(bytes);
  size_t left = size;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = Errno();
      ::close(fd);
      return Status::Error("cannot write " + part + ": " + why);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  const std::string why = synced ? "" : Errno();
  ::close(fd);
  if (!synced) return Status::Error("cannot fsync " + part + ": " + why);
  if (::rename(part.c_str(), path.c_str()) != 0)
    return Status::Error("cannot rename " + part + " to " + path + ": " + Errno());
  return SyncPath(fs::path(path).parent_path().string(), O_RDONLY | O_DIRECTORY);
}

Status WriteTextDurably(const std::string& path, const std::string& text) {
  return WriteDurably(path, text.data(), text.size());
}

Result<std::vector<uint8_t>> ReadAll(const std::string& path) {
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return Status::Error("cannot read " + path + ": " + ec.message());
  if (size > kMaxFileBytes) return Status::Error(path + ": larger than 64 GiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read " + path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return bytes;
}

Result<nlohmann::json> ReadJson(const std::string& path) {
  Result<std::vector<uint8_t>> bytes = ReadAll(path);
  if (!bytes.ok()) return bytes.status();
  nlohmann::json j = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr, false);
  if (j.is_discarded()) return Status::Error(path + ": not valid JSON");
  return j;
}

std::string EntryName(uint32_t node) { return "node-" + std::to_string(node) + ".entry.json"; }

std::string FinalName(uint32_t epoch) { return "ckpt-" + std::to_string(epoch); }

}  // namespace

std::string CheckpointTempDir(const std::string& dir, uint32_t epoch) {
  return dir + "/" + FinalName(epoch) + ".tmp";
}

Status PrepareCheckpoint(const std::string& dir, uint32_t epoch) {
  const std::string tmp = CheckpointTempDir(dir, epoch);
  std::error_code ec;
  fs::remove_all(tmp, ec);  // a crashed earlier attempt
  fs::create_directories(tmp, ec);
  if (ec) return Status::Error("cannot create checkpoint directory " + tmp + ": " + ec.message());
  return Status::Ok();
}

Status WriteNodeCheckpoint(const std::string& dir, uint32_t epoch, uint32_t node,
                           const std::vector<CheckpointRow>& rows) {
  const std::string tmp = CheckpointTempDir(dir, epoch);
  CheckpointFile file;
  const std::vector<uint8_t> bytes = EncodeNodeRows(node, rows, &file);
  if (Status s = WriteDurably(tmp + "/" + file.name, bytes.data(), bytes.size()); !s.ok()) return s;
  CheckpointManifest one;
  one.files.push_back(file);
  const nlohmann::json entry = one.ToJson()["files"][0];
  return WriteTextDurably(tmp + "/" + EntryName(node), entry.dump() + "\n");
}

Status CommitCheckpoint(const std::string& dir, CheckpointManifest manifest) {
  const std::string tmp = CheckpointTempDir(dir, manifest.epoch);
  manifest.files.clear();
  nlohmann::json files = nlohmann::json::array();
  for (uint32_t n = 0; n < manifest.nodes; ++n) {
    Result<nlohmann::json> entry = ReadJson(tmp + "/" + EntryName(n));
    if (!entry.ok()) return entry.status().WithContext("node " + std::to_string(n) + "'s part");
    files.push_back(*entry);
  }
  nlohmann::json j = manifest.ToJson();
  j["files"] = files;
  Result<CheckpointManifest> check = CheckpointManifest::FromJson(j);  // what readers will see
  if (!check.ok()) return check.status().WithContext("checkpoint " + tmp);
  if (Status s = WriteTextDurably(tmp + "/" + kManifestName, j.dump(2) + "\n"); !s.ok()) return s;
  std::error_code ec;
  for (uint32_t n = 0; n < manifest.nodes; ++n) fs::remove(tmp + "/" + EntryName(n), ec);
  const std::string final_dir = dir + "/" + FinalName(manifest.epoch);
  fs::remove_all(final_dir, ec);  // an older run's checkpoint of the same epoch
  fs::rename(tmp, final_dir, ec);
  if (ec) return Status::Error("cannot rename " + tmp + " to " + final_dir + ": " + ec.message());
  if (Status s = SyncPath(dir, O_RDONLY | O_DIRECTORY); !s.ok()) return s;
  return WriteTextDurably(dir + "/LATEST", FinalName(manifest.epoch) + "\n");
}

Result<LoadedCheckpoint> LoadCheckpoint(const std::string& path) {
  LoadedCheckpoint c;
  c.path = path;
  std::error_code ec;
  if (!fs::exists(path + "/" + kManifestName, ec)) {
    std::ifstream latest(path + "/LATEST");
    std::string name;
    if (!(latest >> name))
      return Status::Error(
          latest.is_open()
              ? path + "/LATEST is empty: it should name the last complete checkpoint (ckpt-E)"
              : "checkpoint " + path + ": neither " + path + "/LATEST nor " + path + "/" +
                    kManifestName + " exists");
    if (name.find('/') != std::string::npos || name.rfind("ckpt-", 0) != 0)
      return Status::Error(path + "/LATEST: '" + name + "' is not a checkpoint name");
    c.path = path + "/" + name;
  }
  const std::string manifest_path = c.path + "/" + kManifestName;
  Result<nlohmann::json> j = ReadJson(manifest_path);
  if (!j.ok()) return j.status().WithContext("checkpoint manifest");
  Result<CheckpointManifest> m = CheckpointManifest::FromJson(*j);
  if (!m.ok()) return m.status().WithContext(manifest_path);
  c.manifest = std::move(*m);
  for (const CheckpointFile& f : c.manifest.files) {
    const std::string file_path = c.path + "/" + f.name;
    Result<std::vector<uint8_t>> bytes = ReadAll(file_path);
    if (!bytes.ok()) return bytes.status().WithContext("checkpoint");
    if (Status s = DecodeNodeRows(*bytes, f, &c.rows); !s.ok())
      return s.WithContext("checkpoint file " + file_path);
  }
  return c;
}

}  // namespace augur

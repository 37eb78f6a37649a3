#include "experiments/data/staged_dir.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace augur {

namespace fs = std::filesystem;

namespace {

// True if `dir` is an empty directory or holds an augur data set.
bool Replaceable(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) return true;
  std::ifstream in(dir / "meta.json");
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json meta = nlohmann::json::parse(text.str(), nullptr, false);
  if (meta.is_discarded() || !meta.is_object()) return false;
  const auto it = meta.find("format");
  return it != meta.end() && it->is_string() && it->get<std::string>().rfind("augur-", 0) == 0;
}

}  // namespace

Result<StagedDir> StagedDir::Begin(const std::string& dir) {
  if (dir.empty()) return Status::Error("--out is empty");
  fs::path target = fs::path(dir).lexically_normal();
  if (target.has_filename() == false) target = target.parent_path();  // "out/" -> "out"
  std::error_code ec;
  if (fs::exists(target, ec) && !Replaceable(target))
    return Status::Error("--out " + dir +
                         " exists and is not an augur data set; choose a new or empty directory");
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec)
      return Status::Error("cannot create " + target.parent_path().string() + ": " + ec.message());
  }
  const std::string tmp = target.string() + ".tmp-" + std::to_string(::getpid());
  fs::remove_all(tmp, ec);
  fs::create_directory(tmp, ec);
  if (ec) return Status::Error("cannot create " + tmp + ": " + ec.message());
  return StagedDir(target.string(), tmp);
}

StagedDir::StagedDir(StagedDir&& other) noexcept
    : dir_(std::move(other.dir_)), tmp_(std::move(other.tmp_)), done_(other.done_) {
  other.done_ = true;  // the moved-from object owns nothing
}

StagedDir::~StagedDir() {
  if (done_) return;
  std::error_code ec;
  fs::remove_all(tmp_, ec);
}

Status StagedDir::Commit() {
  std::error_code ec;
  if (fs::exists(dir_, ec)) {
    if (!Replaceable(dir_))
      return Status::Error(dir_ + " appeared during the import and is not an augur data set");
    fs::remove_all(dir_, ec);
    if (ec) return Status::Error("cannot replace " + dir_ + ": " + ec.message());
  }
  fs::rename(tmp_, dir_, ec);
  if (ec) return Status::Error("cannot rename " + tmp_ + " to " + dir_ + ": " + ec.message());
  done_ = true;
  return Status::Ok();
}

}  // namespace augur

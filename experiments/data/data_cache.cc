#include "experiments/data/data_cache.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>

#include "experiments/kge/kg_dataset.h"
#include "experiments/wv/text_corpus.h"

namespace augur {

namespace {

// Builds the cache folder `name` with build(tmp_dir) unless it already exists.
Result<std::string> Cached(const std::string& name,
                           const std::function<Status(const std::string&)>& build) {
  namespace fs = std::filesystem;
  const std::string dir = std::string(kCacheRoot) + "/" + name;
  std::error_code ec;
  if (fs::exists(dir + "/meta.json", ec)) return dir;
  const std::string tmp = dir + ".tmp-" + std::to_string(::getpid());
  fs::remove_all(tmp, ec);
  std::fprintf(stderr, "augur: preparing %s (first use; later runs reuse it)\n", dir.c_str());
  if (Status s = build(tmp); !s.ok()) {
    fs::remove_all(tmp, ec);
    return s;
  }
  fs::rename(tmp, dir, ec);
  if (ec) {  // another process won the race: use its copy
    fs::remove_all(tmp, ec);
    if (!fs::exists(dir + "/meta.json", ec)) return Status::Error("cannot create cache " + dir);
  }
  return dir;
}

}  // namespace

Result<std::string> ResolveKgDataDir(const std::string& data_dir, const std::string& wordnet_dir) {
  if (!data_dir.empty()) return data_dir;
  return Cached("wordnet-kg", [&](const std::string& tmp) {
    Result<KgDataset> d =
        BuildWordNetKg(wordnet_dir, kWordNetHeldOut, kWordNetHeldOut, kWordNetSplitSeed);
    if (!d.ok()) return d.status();
    return WriteKgDataset(*d, tmp);
  });
}

Result<std::string> ResolveTextDataDir(const std::string& data_dir,
                                       const std::string& wordnet_dir) {
  if (!data_dir.empty()) return data_dir;
  return Cached("wordnet-text", [&](const std::string& tmp) {
    Result<uint64_t> n = BuildWordNetTextCorpus(wordnet_dir, tmp);
    return n.ok() ? Status::Ok() : n.status();
  });
}

}  // namespace augur

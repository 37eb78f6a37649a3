// Tiny, deterministic data sets written to a fresh temporary directory, for
// tests of the real workloads (kge, wv, mf) at a scale that runs in seconds.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "core/base/rng.h"
#include "experiments/kge/kg_dataset.h"
#include "experiments/mf/mf_dataset.h"

namespace augur::testing {

// A fresh empty directory under the system temp dir (removed on destruction).
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_((std::filesystem::temp_directory_path() / (std::string("augur-test-")
                                                             .append(name)
                                                             .append("-")
                                                             .append(std::to_string(::getpid()))))
                  .string()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(File(name), std::ios::binary) << text;
  }

 private:
  std::string path_;
};

// A small Zipf-skewed rating matrix of true rank 4 (300 x 150, 12,000
// ratings, seed 5), written as an mf data set into `dir`.
inline Status WriteTinyMf(const std::string& dir, uint64_t seed = 5) {
  MfGenOptions g;
  g.rows = 300;
  g.cols = 150;
  g.nnz = 12000;
  g.true_rank = 4;
  g.seed = seed;
  Result<MfDataset> d = GenerateMf(g);
  if (!d.ok()) return d.status();
  return WriteMfDataset(*d, g, dir);
}

// A learnable KG: relation r links e to (e + r + 1) mod n and to (e * 7 + r) mod n.
inline KgDataset TinyKg(uint32_t entities = 120, uint32_t relations = 3, uint64_t seed = 7) {
  std::vector<Triple> all;
  for (uint32_t r = 0; r < relations; ++r)
    for (uint32_t e = 0; e < entities; ++e) {
      all.push_back({e, r, (e + r + 1) % entities});
      if (e % 2 == 0) all.push_back({e, r, (e * 7 + r) % entities});
    }
  KgDataset d;
  for (uint32_t e = 0; e < entities; ++e)
    d.entity_names.push_back(std::string("e").append(std::to_string(e)));
  for (uint32_t r = 0; r < relations; ++r)
    d.relation_names.push_back(std::string("r").append(std::to_string(r)));
  d.entity_labels = d.entity_names;
  d.relation_labels = d.relation_names;
  SplitKg(all, entities, relations, 40, 40, seed, &d);
  return d;
}

// A topical corpus: 6 topics of 12 words; every sentence has 8 words of one topic.
inline void WriteTinyCorpus(const TempDir& dir, uint32_t sentences = 1500) {
  Rng rng(11);
  std::map<std::string, uint64_t> counts;
  std::string corpus;
  for (uint32_t s = 0; s < sentences; ++s) {
    const uint64_t topic = rng.Below(6);
    for (int i = 0; i < 8; ++i) {
      const std::string w = std::string("t")
                                .append(std::to_string(topic))
                                .append("w")
                                .append(std::to_string(rng.Below(12)));
      corpus += (i ? " " : "") + w;
      ++counts[w];
    }
    corpus += "\n";
  }
  std::string vocab = "# word\tcount\n";
  for (const auto& [w, c] : counts) vocab += w + "\t" + std::to_string(c) + "\n";
  dir.Write("corpus.txt", corpus);
  dir.Write("vocab.tsv", vocab);
}

}  // namespace augur::testing

#include "experiments/wv/corpus_builder.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "experiments/data/line_reader.h"
#include "experiments/wv/text_corpus.h"

namespace augur {

bool CorpusBuilder::AddSentence(std::string_view text) {
  words_.clear();
  Tokenize(text, &words_);
  if (words_.size() < 2) return false;
  for (size_t i = 0; i < words_.size(); ++i) {
    corpus_ << (i ? " " : "") << words_[i];
    ++counts_[words_[i]];
  }
  corpus_ << '\n';
  ++sentences_;
  tokens_ += words_.size();
  return true;
}

Status CorpusBuilder::Write(nlohmann::json meta, const std::string& dir) const {
  std::vector<std::pair<std::string, uint64_t>> vocab(counts_.begin(), counts_.end());
  std::sort(vocab.begin(), vocab.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::ostringstream v;
  v << "# word\tcount\n";
  for (const auto& [w, c] : vocab) v << w << '\t' << c << '\n';
  meta["format"] = "augur-text-1";
  meta["sentences"] = sentences_;
  meta["tokens"] = tokens_;
  meta["vocabulary"] = vocab.size();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  if (Status s = WriteTextFile(dir + "/corpus.txt", corpus_.str()); !s.ok()) return s;
  if (Status s = WriteTextFile(dir + "/vocab.tsv", v.str()); !s.ok()) return s;
  return WriteTextFile(dir + "/meta.json", meta.dump(2) + "\n");
}

}  // namespace augur

// CorpusBuilder: accumulates tokenised sentences and writes the text corpus
// directory format (corpus.txt, vocab.tsv, meta.json; see text_corpus.h).
//
// AddSentence tokenises with Tokenize (text_corpus.h) and keeps the sentence
// only if it has at least two tokens. Write adds sentences, tokens and
// vocabulary to the given meta object. Holds the whole corpus in memory.
// Threading: one user at a time.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/status.h"

namespace augur {

class CorpusBuilder {
 public:
  // Returns true if the sentence was kept (two or more tokens).
  bool AddSentence(std::string_view text);
  uint64_t sentences() const { return sentences_; }
  uint64_t tokens() const { return tokens_; }
  uint64_t vocabulary() const { return counts_.size(); }
  Status Write(nlohmann::json meta, const std::string& dir) const;

 private:
  std::ostringstream corpus_;
  std::unordered_map<std::string, uint64_t> counts_;
  std::vector<std::string> words_;  // scratch
  uint64_t sentences_ = 0, tokens_ = 0;
};

}  // namespace augur

// TextCorpus: a tokenised word corpus built from WordNet glosses and examples,
// and its on-disk format.
//
// Every gloss is split at ';' into its definition and its quoted usage
// examples; each piece becomes one sentence. Tokens are maximal runs of
// ASCII letters, digits, '\'' and '-' (lowercased; leading/trailing '\'' and
// '-' stripped); everything else separates tokens. Sentences with fewer than
// two tokens are dropped.
// Directory format (written by `augur data text`, through CorpusBuilder):
//   corpus.txt   one sentence per line, tokens separated by single spaces
//   vocab.tsv    word<TAB>count, by count descending, then word
//   meta.json    sentences, tokens, vocabulary size, source
// ReadTextCorpus maps words to ids 0..V-1 in vocab.tsv order (so id 0 is the
// most frequent word), dropping words with count < min_count.
// Threading: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace augur {

struct TextCorpus {
  std::vector<std::string> words;      // id -> word
  std::vector<uint64_t> counts;        // id -> count in the whole corpus
  std::vector<uint32_t> tokens;        // all sentences, concatenated
  std::vector<uint64_t> sentence_end;  // sentence i is tokens[end[i-1], end[i])

  uint32_t vocab_size() const { return static_cast<uint32_t>(words.size()); }
  size_t num_sentences() const { return sentence_end.size(); }
  uint64_t SentenceBegin(size_t i) const { return i == 0 ? 0 : sentence_end[i - 1]; }
};

// Appends the lowercased tokens of `text` to out.
void Tokenize(std::string_view text, std::vector<std::string>* out);

// Builds corpus.txt/vocab.tsv/meta.json in `out_dir` from the WordNet glosses
// under wordnet_dir. Returns the number of sentences written.
Result<uint64_t> BuildWordNetTextCorpus(const std::string& wordnet_dir, const std::string& out_dir);

Result<TextCorpus> ReadTextCorpus(const std::string& dir, uint64_t min_count);

}  // namespace augur

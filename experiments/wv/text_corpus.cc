#include "experiments/wv/text_corpus.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "experiments/data/line_reader.h"
#include "experiments/kge/wordnet_reader.h"
#include "experiments/wv/corpus_builder.h"

namespace augur {

namespace {

bool WordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' ||
         c == '-';
}

}  // namespace

void Tokenize(std::string_view text, std::vector<std::string>* out) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !WordChar(text[i])) ++i;
    size_t begin = i;
    while (i < text.size() && WordChar(text[i])) ++i;
    size_t end = i;
    while (begin < end && (text[begin] == '\'' || text[begin] == '-')) ++begin;
    while (end > begin && (text[end - 1] == '\'' || text[end - 1] == '-')) --end;
    if (end == begin) continue;
    std::string word(text.substr(begin, end - begin));
    for (char& c : word)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    out->push_back(std::move(word));
  }
}

Result<uint64_t> BuildWordNetTextCorpus(const std::string& wordnet_dir,
                                        const std::string& out_dir) {
  CorpusBuilder corpus;
  auto on_synset = [&](const WordNetSynset& s) {
    for (std::string_view piece : SplitOn(s.gloss, ';')) corpus.AddSentence(piece);
  };
  Result<WordNetGraph> g = ReadWordNet(wordnet_dir, on_synset);
  if (!g.ok()) return g.status();
  const nlohmann::json meta = {
      {"source", "WordNet 3.0 glosses and examples (" + wordnet_dir + ")"}};
  if (Status s = corpus.Write(meta, out_dir); !s.ok()) return s;
  return corpus.sentences();
}

Result<TextCorpus> ReadTextCorpus(const std::string& dir, uint64_t min_count) {
  TextCorpus c;
  std::unordered_map<std::string, uint32_t> id_of;
  std::unordered_map<std::string, uint64_t> dropped;  // known words below min_count
  std::string line;
  {
    Result<LineReader> r = LineReader::Open(dir + "/vocab.tsv");
    if (!r.ok()) return r.status();
    while (r->Next(&line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto f = SplitOn(line, '\t');
      uint64_t count = 0;
      if (f.size() != 2 || f[0].empty()) return r->Error("expected word<TAB>count");
      if (!ParseU64(f[1], &count) || count == 0)
        return r->Error("count must be a positive integer");
      std::string w(f[0]);
      if (id_of.count(w) || dropped.count(w)) return r->Error("word '" + w + "' listed twice");
      if (count < min_count) {
        dropped.emplace(std::move(w), count);
        continue;
      }
      id_of.emplace(w, static_cast<uint32_t>(c.words.size()));
      c.words.push_back(std::move(w));
      c.counts.push_back(count);
    }
    if (!r->status().ok()) return r->status();
  }
  if (c.words.empty())
    return Status::Error(dir + "/vocab.tsv: no word with count >= " + std::to_string(min_count));
  Result<LineReader> r = LineReader::Open(dir + "/corpus.txt");
  if (!r.ok()) return r.status();
  while (r->Next(&line)) {
    const uint64_t before = c.tokens.size();
    for (std::string_view w : SplitOn(line, ' ')) {
      if (w.empty()) continue;
      auto it = id_of.find(std::string(w));
      if (it != id_of.end()) {
        c.tokens.push_back(it->second);
      } else if (!dropped.count(std::string(w))) {
        return r->Error("word '" + std::string(w.substr(0, 64)) + "' is not in vocab.tsv");
      }
    }
    if (c.tokens.size() - before >= 2) {
      c.sentence_end.push_back(c.tokens.size());
    } else {
      c.tokens.resize(before);
    }
  }
  if (!r->status().ok()) return r->status();
  if (c.sentence_end.empty()) return Status::Error(dir + "/corpus.txt: no sentence of 2+ words");
  return c;
}

}  // namespace augur

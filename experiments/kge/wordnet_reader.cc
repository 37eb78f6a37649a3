#include "experiments/kge/wordnet_reader.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <unordered_map>

#include "experiments/data/line_reader.h"

namespace augur {

namespace {

constexpr uint32_t kMaxWords = 0xFF;    // w_cnt is two hex digits
constexpr uint32_t kMaxPointers = 999;  // p_cnt is three decimal digits
constexpr uint32_t kMaxOffset = 99999999;

bool ValidPos(char c) { return c == 'n' || c == 'v' || c == 'a' || c == 'r' || c == 's'; }
char NormalPos(char c) { return c == 's' ? 'a' : c; }
uint64_t EntityCode(char pos, uint32_t offset) {
  return (static_cast<uint64_t>(static_cast<unsigned char>(pos)) << 32) | offset;
}
std::string EntityName(char pos, uint32_t offset) {
  std::string digits = std::to_string(offset);
  if (digits.size() < 8) digits.insert(0, 8 - digits.size(), '0');
  return std::string(1, pos) + "." + digits;
}

// Cursor over the whitespace-separated fields before the gloss.
class Fields {
 public:
  explicit Fields(std::string_view text) : f_(SplitWhitespace(text)) {}
  bool Take(std::string_view* out) {
    if (at_ >= f_.size()) return false;
    *out = f_[at_++];
    return true;
  }

 private:
  std::vector<std::string_view> f_;
  size_t at_ = 0;
};

Status ParsePointer(Fields& fs, uint32_t index, WordNetPointer* p) {
  const std::string n = "pointer " + std::to_string(index + 1) + ": ";
  std::string_view sym, off, pos, st;
  if (!fs.Take(&sym) || !fs.Take(&off) || !fs.Take(&pos) || !fs.Take(&st))
    return Status::Error(n + "expected 4 fields (symbol offset pos source/target)");
  if (sym.empty() || sym.size() > 2) return Status::Error(n + "bad pointer symbol");
  if (off.size() != 8 || !ParseU32(off, &p->target_offset))
    return Status::Error(n + "expected an 8-digit target offset");
  if (pos.size() != 1 || !ValidPos(pos[0]))
    return Status::Error(n + "target part of speech must be one of n v a r s");
  uint32_t source_target = 0;
  if (st.size() != 4 || !ParseU32(st, &source_target, 16))
    return Status::Error(n + "expected 4 hex digits of source/target");
  p->symbol = std::string(sym);
  p->target_pos = NormalPos(pos[0]);
  return Status::Ok();
}

}  // namespace

Status ParseWordNetDataLine(std::string_view line, char file_pos, WordNetSynset* out) {
  *out = WordNetSynset{};
  out->pos = file_pos;
  const size_t bar = line.find(" |");
  const std::string_view head = line.substr(0, bar);
  if (bar == std::string_view::npos) return Status::Error("missing ' | ' before the gloss");
  std::string_view gloss = line.substr(bar + 2);
  while (!gloss.empty() && gloss.front() == ' ') gloss.remove_prefix(1);
  while (!gloss.empty() && gloss.back() == ' ') gloss.remove_suffix(1);
  out->gloss = std::string(gloss);

  Fields fs(head);
  std::string_view v;
  if (!fs.Take(&v) || v.size() != 8 || !ParseU32(v, &out->offset) || out->offset > kMaxOffset)
    return Status::Error("expected an 8-digit synset offset as the first field");
  uint32_t lex_file = 0;
  if (!fs.Take(&v) || !ParseU32(v, &lex_file)) return Status::Error("expected lex_filenum");
  if (!fs.Take(&v) || v.size() != 1 || !ValidPos(v[0]))
    return Status::Error("ss_type must be one of n v a r s");
  if (NormalPos(v[0]) != file_pos)
    return Status::Error("ss_type '" + std::string(v) + "' does not belong in this file");
  uint32_t words = 0;
  if (!fs.Take(&v) || v.size() != 2 || !ParseU32(v, &words, 16) || words == 0)
    return Status::Error("expected a 2-hex-digit word count >= 1");
  for (uint32_t i = 0; i < words && i < kMaxWords; ++i) {
    std::string_view word, lex_id;
    if (!fs.Take(&word) || !fs.Take(&lex_id))
      return Status::Error("word " + std::to_string(i + 1) + " of " + std::to_string(words) +
                           " is missing");
    uint32_t id = 0;
    if (!ParseU32(lex_id, &id, 16))
      return Status::Error("bad lex_id after word " + std::string(word));
    out->words.emplace_back(word);
  }
  uint32_t pointers = 0;
  if (!fs.Take(&v) || v.size() != 3 || !ParseU32(v, &pointers) || pointers > kMaxPointers)
    return Status::Error("expected a 3-digit pointer count");
  out->pointers.resize(pointers);
  for (uint32_t i = 0; i < pointers; ++i) {
    if (Status s = ParsePointer(fs, i, &out->pointers[i]); !s.ok()) return s;
  }
  // Verb frames (f_cnt + f_num w_num ...) may follow; they carry no relations.
  return Status::Ok();
}

Result<WordNetGraph> ReadWordNet(const std::string& dir,
                                 const std::function<void(const WordNetSynset&)>& on_synset) {
  struct Pending {
    uint32_t head;
    uint32_t relation;
    uint64_t target;
    uint8_t file;
    uint64_t line;
  };
  static constexpr std::array<std::pair<const char*, char>, 4> kFiles = {
      {{"data.noun", 'n'}, {"data.verb", 'v'}, {"data.adj", 'a'}, {"data.adv", 'r'}}};
  WordNetGraph g;
  std::unordered_map<uint64_t, uint32_t> entity_of;
  std::unordered_map<std::string, uint32_t> relation_of;
  std::vector<Pending> pending;
  std::array<std::string, 4> paths;
  std::string line;
  WordNetSynset s;
  for (uint8_t f = 0; f < kFiles.size(); ++f) {
    paths[f] = dir + "/" + kFiles[f].first;
    Result<LineReader> r = LineReader::Open(paths[f]);
    if (!r.ok())
      return r.status().WithContext(
          "WordNet data (install Debian package wordnet-base, or "
          "pass --wordnet DIR)");
    while (r->Next(&line)) {
      if (line.empty() || line[0] == ' ') continue;  // license header
      if (Status st = ParseWordNetDataLine(line, kFiles[f].second, &s); !st.ok())
        return r->Error(st.message());
      const uint64_t code = EntityCode(s.pos, s.offset);
      const uint32_t id = static_cast<uint32_t>(g.entity_names.size());
      if (!entity_of.emplace(code, id).second)
        return r->Error("synset " + EntityName(s.pos, s.offset) + " defined twice");
      g.entity_names.push_back(EntityName(s.pos, s.offset));
      g.entity_lemmas.push_back(s.words.empty() ? std::string() : s.words[0]);
      for (const WordNetPointer& p : s.pointers) {
        auto [it, added] = relation_of.emplace(p.symbol, g.relation_names.size());
        if (added) g.relation_names.push_back(p.symbol);
        pending.push_back(
            {id, it->second, EntityCode(p.target_pos, p.target_offset), f, r->line_number()});
      }
      if (on_synset) on_synset(s);
    }
    if (!r->status().ok()) return r->status();
  }
  if (g.entity_names.empty()) return Status::Error("no synsets found in " + dir + "/data.*");
  g.pointer_records = pending.size();
  g.triples.reserve(pending.size());
  for (const Pending& p : pending) {
    auto it = entity_of.find(p.target);
    if (it == entity_of.end()) {
      const char pos = static_cast<char>(p.target >> 32);
      return Status::Error(paths[p.file] + ":" + std::to_string(p.line) + ": pointer to synset " +
                           EntityName(pos, static_cast<uint32_t>(p.target)) +
                           " that does not exist");
    }
    g.triples.push_back({p.head, p.relation, it->second});
  }
  auto order = [](const Triple& a, const Triple& b) {
    return std::tie(a.head, a.relation, a.tail) < std::tie(b.head, b.relation, b.tail);
  };
  std::sort(g.triples.begin(), g.triples.end(), order);
  g.triples.erase(std::unique(g.triples.begin(), g.triples.end()), g.triples.end());
  return g;
}

const char* WordNetPointerName(std::string_view s) {
  static const std::unordered_map<std::string_view, const char*> kNames = {
      {"!", "antonym"},
      {"@", "hypernym"},
      {"@i", "instance_hypernym"},
      {"~", "hyponym"},
      {"~i", "instance_hyponym"},
      {"#m", "member_holonym"},
      {"#s", "substance_holonym"},
      {"#p", "part_holonym"},
      {"%m", "member_meronym"},
      {"%s", "substance_meronym"},
      {"%p", "part_meronym"},
      {"=", "attribute"},
      {"+", "derivationally_related_form"},
      {";c", "domain_of_synset_topic"},
      {"-c", "member_of_domain_topic"},
      {";r", "domain_of_synset_region"},
      {"-r", "member_of_domain_region"},
      {";u", "domain_of_synset_usage"},
      {"-u", "member_of_domain_usage"},
      {"*", "entailment"},
      {">", "cause"},
      {"^", "also_see"},
      {"$", "verb_group"},
      {"&", "similar_to"},
      {"<", "participle_of_verb"},
      {"\\", "pertainym_or_derived_from_adjective"}};
  auto it = kNames.find(s);
  return it == kNames.end() ? "unknown" : it->second;
}

}  // namespace augur

// WordNetReader: parses WordNet 3.0 data files (data.noun/verb/adj/adv) into a
// knowledge graph: synsets are entities, pointer symbols are relation types.
//
// Format (wndb(5)): lines starting with two spaces are the license header;
// every other line is
//   offset lex_filenum ss_type w_cnt(hex) {word lex_id} p_cnt {sym offset pos src/tgt(hex)}
//   [f_cnt {+ f_num w_num}] | gloss
// An entity is (part of speech, offset); adjective satellites ('s') belong to
// the adjective file and are named "a.OFFSET" like head adjectives. Lexical
// pointers (src/tgt != 0000) relate words; they are lifted to their synsets,
// so a synset pair can be linked by several pointer records with the same
// symbol: edges are deduplicated on (head, relation, tail) and both counts are
// kept. Every malformed line is an error naming the file and line; the parser
// is bounds-checked throughout (fuzzed input must produce errors, never UB).
// Threading: plain functions over values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace augur {

inline constexpr const char* kDefaultWordNetDir = "/usr/share/wordnet";

struct WordNetPointer {
  std::string symbol;
  uint32_t target_offset = 0;
  char target_pos = 'n';  // n, v, a, r ('s' is mapped to 'a')
};

struct WordNetSynset {
  char pos = 'n';  // of the file: n, v, a, r
  uint32_t offset = 0;
  std::vector<std::string> words;
  std::vector<WordNetPointer> pointers;
  std::string gloss;  // text after " | " (may be empty)
};

// Parses one data line of the file for part of speech `file_pos`. The message
// of an error has no location; callers prefix "FILE:LINE".
Status ParseWordNetDataLine(std::string_view line, char file_pos, WordNetSynset* out);

struct Triple {
  uint32_t head = 0;
  uint32_t relation = 0;
  uint32_t tail = 0;
  bool operator==(const Triple&) const = default;
};

struct WordNetGraph {
  std::vector<std::string> entity_names;    // "n.00001740"
  std::vector<std::string> entity_lemmas;   // first word of the synset
  std::vector<std::string> relation_names;  // pointer symbols, in order of first use
  std::vector<Triple> triples;              // deduplicated, sorted by (head, relation, tail)
  uint64_t pointer_records = 0;             // before deduplication
};

// Reads DIR/data.{noun,verb,adj,adv}. on_synset (optional) sees every parsed
// synset (used to build the gloss corpus in the same pass).
Result<WordNetGraph> ReadWordNet(const std::string& dir,
                                 const std::function<void(const WordNetSynset&)>& on_synset = {});

// Human-readable description of a WordNet pointer symbol ("@" -> "hypernym").
const char* WordNetPointerName(std::string_view symbol);

}  // namespace augur

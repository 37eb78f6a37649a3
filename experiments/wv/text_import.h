// ImportText: a word corpus from plain UTF-8 text files.
//
// Every line of every file (in order) becomes one sentence, tokenised by
// Tokenize (text_corpus.h: runs of ASCII letters, digits, '\'' and '-',
// lowercased; other characters, including non-ASCII letters, separate
// tokens). Lines with fewer than two tokens are dropped, as in the WordNet
// corpus. Errors: "FILE:LINE: not valid UTF-8 ..." for a line that is not
// UTF-8, "cannot open FILE" for a missing file, and an error when no line
// has two tokens. Threading: plain functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "experiments/data/utf8.h"
#include "experiments/wv/corpus_builder.h"

namespace augur {

// Reads every line of `files` into out; returns the lines read.
Result<uint64_t> ImportText(const std::vector<std::string>& files, CorpusBuilder* out);

}  // namespace augur

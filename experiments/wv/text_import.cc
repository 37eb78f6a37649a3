#include "experiments/wv/text_import.h"

#include "experiments/data/line_reader.h"
#include "experiments/data/utf8.h"

namespace augur {

Result<uint64_t> ImportText(const std::vector<std::string>& files, CorpusBuilder* out) {
  if (files.empty()) return Status::Error("no input file (--in FILE)");
  uint64_t lines = 0;
  std::string line;
  for (const std::string& file : files) {
    Result<LineReader> r = LineReader::Open(file);
    if (!r.ok()) return r.status();
    while (r->Next(&line)) {
      ++lines;
      if (const size_t at = FindInvalidUtf8(line); at != std::string_view::npos)
        return r->Error("not valid UTF-8 (byte " + std::to_string(at + 1) + " of the line)");
      out->AddSentence(line);
    }
    if (!r->status().ok()) return r->status();
  }
  if (out->sentences() == 0) {
    std::string names;
    for (const std::string& f : files) names += (names.empty() ? "" : ", ") + f;
    return Status::Error(names + ": no line with two or more words");
  }
  return lines;
}

}  // namespace augur

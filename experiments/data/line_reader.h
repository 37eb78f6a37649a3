// LineReader and field parsing: the bounds-checked base of every data parser.
//
// Reads a text file one line at a time and knows the current line number, so
// parsers can return errors of the form "FILE:LINE: what is wrong". The field
// helpers never read past the given string_view and never throw; numeric
// parsing rejects empty fields, trailing garbage, overflow and non-finite floats.
// Overlong lines (> kMaxLineBytes) are an error, not an allocation bomb.
// Ownership: owns its file stream. Threading: one user at a time.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace augur {

inline constexpr size_t kMaxLineBytes = 1 << 20;

class LineReader {
 public:
  // Error: "cannot open PATH: reason".
  static Result<LineReader> Open(const std::string& path);

  // Reads the next line (without '\n' or a trailing '\r'; the first line
  // without a leading UTF-8 byte-order mark). Returns false at end of file or
  // on error; check status() afterwards.
  bool Next(std::string* line);
  const Status& status() const { return status_; }
  uint64_t line_number() const { return line_; }
  const std::string& path() const { return path_; }
  // "PATH:LINE: message".
  Status Error(const std::string& message) const;

 private:
  explicit LineReader(std::string path) : path_(std::move(path)) {}
  std::string path_;
  std::unique_ptr<std::ifstream> in_;
  uint64_t line_ = 0;
  Status status_;
};

// Splits on one separator character, or string; empty fields are kept.
std::vector<std::string_view> SplitOn(std::string_view line, char sep);
std::vector<std::string_view> SplitOn(std::string_view line, std::string_view sep);
// Splits on runs of spaces and tabs; no empty fields.
std::vector<std::string_view> SplitWhitespace(std::string_view line);

// Whole-field numeric parsing; false on any malformation.
bool ParseU64(std::string_view s, uint64_t* out, int base = 10);
bool ParseU32(std::string_view s, uint32_t* out, int base = 10);
// (A float: ParseFloatNumber, core/config/number_text.h, which says what is wrong.)

// Writes `text` to PATH atomically (temp file + rename). Error names the path.
Status WriteTextFile(const std::string& path, const std::string& text);

}  // namespace augur

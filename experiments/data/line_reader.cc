#include "experiments/data/line_reader.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

namespace augur {

Result<LineReader> LineReader::Open(const std::string& path) {
  LineReader r(path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Status::Error("cannot open " + path + ": is a directory");
  r.in_ = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*r.in_) return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  return r;
}

bool LineReader::Next(std::string* line) {
  if (!status_.ok() || !in_) return false;
  line->clear();
  char buf[4096];
  bool any = false;
  while (true) {
    in_->getline(buf, sizeof(buf));
    const size_t got = static_cast<size_t>(in_->gcount());
    if (in_->bad()) {
      status_ = Status::Error("error reading " + path_);
      return false;
    }
    if (in_->eof()) {  // no delimiter: the last line has no '\n'
      line->append(buf, got);
      if (got == 0 && !any) return false;
      break;
    }
    any = true;
    if (in_->fail()) {  // buffer full: the line continues
      line->append(buf, got);
      in_->clear();
    } else {  // gcount counted the consumed '\n'
      line->append(buf, got > 0 ? got - 1 : 0);
      break;
    }
    if (line->size() > kMaxLineBytes) {
      ++line_;
      status_ = Error("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
      return false;
    }
  }
  ++line_;
  // A UTF-8 byte-order mark (as Excel and Windows tools write) is not part of the first line.
  if (line_ == 1 && line->rfind("\xEF\xBB\xBF", 0) == 0) line->erase(0, 3);
  if (line->size() > kMaxLineBytes) {
    status_ = Error("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    return false;
  }
  if (!line->empty() && line->back() == '\r') line->pop_back();
  return true;
}

Status LineReader::Error(const std::string& message) const {
  return Status::Error(path_ + ":" + std::to_string(line_) + ": " + message);
}

std::vector<std::string_view> SplitOn(std::string_view line, std::string_view sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t at = line.find(sep, start);
    if (at == std::string_view::npos) {
      out.push_back(line.substr(start));
      return out;
    }
    out.push_back(line.substr(start, at - start));
    start = at + sep.size();
  }
}

std::vector<std::string_view> SplitOn(std::string_view line, char sep) {
  return SplitOn(line, std::string_view(&sep, 1));
}

std::vector<std::string_view> SplitWhitespace(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool ParseU64(std::string_view s, uint64_t* out, int base) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, *out, base);
  return ec == std::errc() && ptr == end;
}

bool ParseU32(std::string_view s, uint32_t* out, int base) {
  uint64_t v = 0;
  if (!ParseU64(s, &v, base) || v > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

Status WriteTextFile(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) return Status::Error("error writing " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status::Error("cannot rename " + tmp + " to " + path + ": " + ec.message());
  return Status::Ok();
}

}  // namespace augur

// Fuzz input helpers: turn one libFuzzer input into the files a parser reads.
//
// Parsers in experiments/ and simulator/ read named files, so a target splits
// its input at kSectionMark lines into sections and writes section i to the
// i-th file name (a missing section removes the file, so "file absent" is
// explored too). The seed corpus (tests/fuzz/corpus/<target>/) uses the same
// mark, so seeds stay readable text.
// Ownership: a FuzzDir owns one fresh directory under the temp dir, removed on
// destruction. Threading: one fuzzing thread (libFuzzer runs inputs serially).
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace augur::fuzz {

inline constexpr std::string_view kSectionMark = "\n--8<--\n";

inline std::vector<std::string_view> SplitSections(const uint8_t* data, size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> out;
  for (;;) {
    const size_t at = all.find(kSectionMark);
    if (at == std::string_view::npos) break;
    out.push_back(all.substr(0, at));
    all.remove_prefix(at + kSectionMark.size());
  }
  out.push_back(all);
  return out;
}

class FuzzDir {
 public:
  explicit FuzzDir(const std::string& name)
      : path_((std::filesystem::temp_directory_path() /
               ("augur-fuzz-" + name + "-" + std::to_string(::getpid())))
                  .string()) {
    std::filesystem::create_directories(path_);
  }
  ~FuzzDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  FuzzDir(const FuzzDir&) = delete;
  FuzzDir& operator=(const FuzzDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

  // Writes section i to names[i]; names without a section are removed.
  void WriteSections(const std::vector<std::string>& names,
                     const std::vector<std::string_view>& sections) const {
    for (size_t i = 0; i < names.size(); ++i) {
      if (i < sections.size()) {
        std::ofstream(File(names[i]), std::ios::binary | std::ios::trunc)
            .write(sections[i].data(), static_cast<std::streamsize>(sections[i].size()));
      } else {
        std::error_code ec;
        std::filesystem::remove(File(names[i]), ec);
      }
    }
  }

 private:
  std::string path_;
};

}  // namespace augur::fuzz

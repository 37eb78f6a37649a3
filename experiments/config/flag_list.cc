#include "experiments/config/flag_list.h"

namespace augur {

namespace {
bool IsFlagWithValue(const std::string& word, const std::string& flag) {
  return word.rfind(flag + "=", 0) == 0;
}
}  // namespace

std::string FlagValue(const std::vector<std::string>& flags, const std::string& flag) {
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == flag && i + 1 < flags.size()) return flags[i + 1];
    if (IsFlagWithValue(flags[i], flag)) return flags[i].substr(flag.size() + 1);
  }
  return "";
}

bool HasFlag(const std::vector<std::string>& flags, const std::string& flag) {
  for (const std::string& f : flags)
    if (f == flag || IsFlagWithValue(f, flag)) return true;
  return false;
}

std::vector<std::string> WithoutFlag(const std::vector<std::string>& flags,
                                     const std::string& flag) {
  std::vector<std::string> kept;
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == flag) {
      ++i;  // and its value
      continue;
    }
    if (IsFlagWithValue(flags[i], flag)) continue;
    kept.push_back(flags[i]);
  }
  return kept;
}

}  // namespace augur

// Flag lists: lookups in and edits of a command line's words ("--flag V" or
// "--flag=V"), for commands that pass flags on to the commands they start
// (compare, calibrate). Plain functions on values; no parsing of the values.
#pragma once

#include <string>
#include <vector>

namespace augur {

// The value of `--flag V` or `--flag=V` in flags ("" if absent; the first one).
std::string FlagValue(const std::vector<std::string>& flags, const std::string& flag);
// Whether flags hold `--flag` (with or without a value).
bool HasFlag(const std::vector<std::string>& flags, const std::string& flag);
// flags without every `--flag V` / `--flag=V`.
std::vector<std::string> WithoutFlag(const std::vector<std::string>& flags,
                                     const std::string& flag);

}  // namespace augur

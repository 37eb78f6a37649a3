// AsciiLower: a copy with A-Z lowered, for the importers' case-insensitive
// keywords (column names, MatrixMarket banners); other bytes (UTF-8 names)
// stay as they are. Plain function.
#pragma once

#include <string>
#include <string_view>

namespace augur {

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace augur

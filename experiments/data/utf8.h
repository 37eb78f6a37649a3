// FindInvalidUtf8: where a string stops being valid UTF-8, for the importers
// that take names or text from the user's files (text, kg).
// Plain function; no allocation.
#pragma once

#include <cstddef>
#include <string_view>

namespace augur {

// Returns the byte offset of the first invalid UTF-8 sequence (truncated,
// overlong, a surrogate, above U+10FFFF), or npos.
size_t FindInvalidUtf8(std::string_view text);

}  // namespace augur

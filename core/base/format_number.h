// FormatNumber: a double as a message shows it, "%g" (6 significant digits:
// 0.001, 2.5e+09, inf, nan). For error messages and reports, not for files
// that must round-trip (those use JSON). Pure function.
#pragma once

#include <string>

namespace augur {

std::string FormatNumber(double v);

}  // namespace augur

// NumberText: reads a decimal number from a flag or a data file, saying
// exactly what is wrong with one that cannot be used.
//
//   ParseNumber("0.5") == 0.5
//   ParseNumber("1e400")   -> "'1e400' is out of range (beyond +-1.8e308)"
//   ParseNumber("1e-400")  -> "'1e-400' underflows to 0 (below 2.2e-308 in magnitude)"
//   ParseNumber("inf")     -> "'inf' is not a finite number"
//   ParseNumber("5x")      -> "'5x' is not a number"
// strtod alone turned 1e400 into inf and 1e-400 into 0 (or a denormal)
// without a word. Errors name the text, not the flag or file: callers add
// that as context. Pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace augur {

// The whole text is one finite double.
Result<double> ParseNumber(std::string_view text);

// A finite double at the start of text ("12.5Gbps"); *used is how many
// characters it took (the rest is a unit, for the caller to read).
Result<double> ParseNumberPrefix(std::string_view text, size_t* used);

// The whole text is one finite float that does not underflow as a float.
Result<float> ParseFloatNumber(std::string_view text);

}  // namespace augur

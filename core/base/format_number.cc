#include "core/base/format_number.h"

#include <cstdio>

namespace augur {

std::string FormatNumber(double v) {
  char buf[32];  // "%g" of any double: at most 13 characters ("-1.79769e+308")
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

}  // namespace augur

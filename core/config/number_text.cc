#include "core/config/number_text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace augur {

namespace {

std::string Quoted(std::string_view text) {
  std::string q = "'";  // appended piecewise: GCC 12 warns (-Wrestrict) on operator+ here
  q.append(text);
  q += '\'';
  return q;
}

}  // namespace

Result<double> ParseNumberPrefix(std::string_view text, size_t* used) {
  // strtod needs a terminated string; a flag or a field is short.
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(s.c_str(), &end);
  *used = static_cast<size_t>(end - s.c_str());
  // Decimal only: strtod also reads leading spaces and hexadecimal ("0x10").
  const size_t digits = s.find_first_not_of("+-");
  const bool hex = digits != std::string::npos && s.size() > digits + 1 && s[digits] == '0' &&
                   (s[digits + 1] == 'x' || s[digits + 1] == 'X');
  if (*used == 0 || hex || std::isspace(static_cast<unsigned char>(s[0]))) {
    *used = 0;
    return Status::Error(Quoted(text) + " is not a number");
  }
  const std::string_view number = text.substr(0, *used);
  if (!std::isfinite(value) && errno != ERANGE)  // "inf", "nan" spelled out
    return Status::Error(Quoted(number) + " is not a finite number");
  if (errno == ERANGE) {
    if (std::fabs(value) > 1)
      return Status::Error(Quoted(number) + " is out of range (beyond +-1.8e308)");
    return Status::Error(Quoted(number) + (value == 0 ? " underflows to 0" : " underflows") +
                         " (below 2.2e-308 in magnitude)");
  }
  return value;
}

Result<double> ParseNumber(std::string_view text) {
  size_t used = 0;
  Result<double> v = ParseNumberPrefix(text, &used);
  if (!v.ok()) return v;
  if (used != text.size()) return Status::Error(Quoted(text) + " is not a number");
  return v;
}

Result<float> ParseFloatNumber(std::string_view text) {
  Result<double> v = ParseNumber(text);
  if (!v.ok()) return v.status();
  constexpr double kMax = std::numeric_limits<float>::max();
  constexpr double kMinNormal = std::numeric_limits<float>::min();
  if (std::fabs(*v) > kMax)
    return Status::Error(Quoted(text) + " is out of range for a 32-bit float (beyond +-3.4e38)");
  if (*v != 0 && std::fabs(*v) < kMinNormal)
    return Status::Error(Quoted(text) +
                         (static_cast<float>(*v) == 0 ? " underflows to 0" : " underflows") +
                         " as a 32-bit float (below 1.2e-38 in magnitude)");
  return static_cast<float>(*v);
}

}  // namespace augur

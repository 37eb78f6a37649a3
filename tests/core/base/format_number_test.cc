#include "core/base/format_number.h"

#include <catch2/catch.hpp>
#include <limits>

namespace augur {
namespace {

TEST_CASE("FormatNumber writes a double as %g does", "[base]") {
  CHECK(FormatNumber(0.001) == "0.001");
  CHECK(FormatNumber(2.5e9) == "2.5e+09");
  CHECK(FormatNumber(1.0 / 3) == "0.333333");
  CHECK(FormatNumber(-std::numeric_limits<double>::max()) == "-1.79769e+308");
  CHECK(FormatNumber(std::numeric_limits<double>::infinity()) == "inf");
}

}  // namespace
}  // namespace augur

#include "core/config/units.h"

#include <catch2/catch.hpp>

#include "core/config/number_text.h"

namespace augur {
namespace {

TEST_CASE("durations and bandwidths parse with units and reject junk", "[config]") {
  CHECK(*ParseDuration("5us") == Approx(5e-6));
  CHECK(*ParseDuration("2.5ms") == Approx(2.5e-3));
  CHECK(*ParseDuration("3s") == Approx(3));
  CHECK(*ParseDuration("0") == 0);  // zero needs no unit
  CHECK_THAT(ParseDuration("5").status().message(), Catch::Contains("has no unit"));
  CHECK_THAT(ParseBandwidth("10").status().message(), Catch::Contains("has no unit"));
  CHECK(*ParseBandwidth("10Gbps") == Approx(1.25e9));
  CHECK(*ParseBandwidth("100MBps") == Approx(1e8));
  CHECK_THAT(ParseDuration("5parsecs").status().message(),
             Catch::Contains("unknown duration unit"));
  CHECK_FALSE(ParseDuration("").ok());
  CHECK_FALSE(ParseDuration("-1s").ok());
  CHECK_FALSE(ParseBandwidth("fast").ok());
  CHECK_FALSE(ParseBandwidth("nanGbps").ok());
}

TEST_CASE("numbers out of range say so exactly", "[config]") {
  CHECK(ParseNumber("0.5").value() == 0.5);
  CHECK(ParseNumber("-1e-300").value() == -1e-300);
  CHECK(ParseNumber("1e400").status().message() == "'1e400' is out of range (beyond +-1.8e308)");
  CHECK(ParseNumber("-1e400").status().message() == "'-1e400' is out of range (beyond +-1.8e308)");
  CHECK(ParseNumber("1e-400").status().message() ==
        "'1e-400' underflows to 0 (below 2.2e-308 in magnitude)");
  CHECK(ParseNumber("1e-310").status().message() ==
        "'1e-310' underflows (below 2.2e-308 in magnitude)");
  CHECK(ParseNumber("inf").status().message() == "'inf' is not a finite number");
  CHECK(ParseNumber("nan").status().message() == "'nan' is not a finite number");
  CHECK(ParseNumber("5x").status().message() == "'5x' is not a number");
  CHECK(ParseNumber("").status().message() == "'' is not a number");
  CHECK(ParseNumber(" 5").status().message() == "' 5' is not a number");
  CHECK(ParseNumber("0x10").status().message() == "'0x10' is not a number");
  CHECK(ParseNumber("-0X1p3").status().message() == "'-0X1p3' is not a number");
  CHECK(ParseFloatNumber("-1.5e2").value() == -150.0f);
  CHECK(ParseFloatNumber("1e39").status().message() ==
        "'1e39' is out of range for a 32-bit float (beyond +-3.4e38)");
  CHECK(ParseFloatNumber("1e-50").status().message() ==
        "'1e-50' underflows to 0 as a 32-bit float (below 1.2e-38 in magnitude)");
  CHECK(ParseFloatNumber("0").value() == 0.0f);
  CHECK(ParseDuration("1e-400s").status().message() ==
        "'1e-400s': '1e-400' underflows to 0 (below 2.2e-308 in magnitude)");
  CHECK(ParseDuration("1e400us").status().message() ==
        "'1e400us': '1e400' is out of range (beyond +-1.8e308)");
  CHECK(ParseBandwidth("1e308Gbps").status().message() ==
        "'1e308Gbps' is out of range once converted to Bps");
}

}  // namespace
}  // namespace augur

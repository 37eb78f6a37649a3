#include "core/config/units.h"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace augur

// Parsing of human-readable quantities in flags: durations and bandwidths.
//
//   ParseDuration("5us") == 5e-6 seconds; units: s, ms, us, ns.
//   ParseBandwidth("10Gbps") == 1.25e9 bytes/s; units: bps, Kbps, Mbps, Gbps
//   (bits/s) and Bps, KBps, MBps, GBps (bytes/s).
// A bare number other than 0 is an error: `--link-latency 5` meant 5 s, a
// plausible typo for 5us that turned a simulation absurd without a word.
// Errors name the text and the accepted units. Pure functions.
#pragma once

#include <string>

#include "core/base/status.h"

namespace augur {

Result<double> ParseDuration(const std::string& text);
Result<double> ParseBandwidth(const std::string& text);

}  // namespace augur

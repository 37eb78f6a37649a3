// Hostfile: the hosts `augur launch --hostfile` starts ranks on.
//
// One host per line, optionally followed by a slot count ("node1", "node2 slots=4"
// or "node2 4"); '#' starts a comment. Ranks fill hosts in file order, `slots`
// ranks per host. Pure function.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"

namespace augur {

// Returns one host name per rank. Errors name the file and line.
Result<std::vector<std::string>> ReadHostfile(const std::string& path);

}  // namespace augur

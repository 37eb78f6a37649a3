// Help text of `augur data`: every directory format the workloads read and
// every input format the importers accept, each with a five-line example.
// experiments/data/README.md is the longer reference; keep the two in step.
// Threading: pure functions returning constants.
#pragma once

#include <string>

namespace augur {

std::string DataHelpKgDir();
std::string DataHelpTextDir();
std::string DataHelpMfDir();
std::string DataHelpKgInput();
std::string DataHelpTextInput();
std::string DataHelpMfInput();
// All of the above: the footer of `augur data --help`.
std::string DataHelpAll();

}  // namespace augur

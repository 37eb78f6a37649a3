#include "experiments/launch/hostfile.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace augur {

Result<std::vector<std::string>> ReadHostfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read hostfile " + path);
  std::vector<std::string> ranks;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string host, slots_text, extra;
    if (!(words >> host)) continue;
    words >> slots_text >> extra;
    const std::string where = path + ":" + std::to_string(number);
    if (!extra.empty()) return Status::Error(where + ": expected 'HOST [slots=N]'");
    if (slots_text.rfind("slots=", 0) == 0) slots_text = slots_text.substr(6);
    long slots = 1;
    if (!slots_text.empty()) {
      char* end = nullptr;
      slots = std::strtol(slots_text.c_str(), &end, 10);
      if (*end != '\0' || slots < 1 || slots > 4096) {
        return Status::Error(where + ": slot count '" + slots_text + "' is not in [1, 4096]");
      }
    }
    for (long s = 0; s < slots; ++s) ranks.push_back(host);
  }
  if (ranks.empty()) return Status::Error("hostfile " + path + " lists no hosts");
  return ranks;
}

}  // namespace augur

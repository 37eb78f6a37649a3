#include "experiments/launch/launch_env.h"

#include <cstdlib>
#include <iterator>

namespace augur {

namespace {

constexpr const char* kOptionOf[] = {"rank",       "nodes", "coordinator",   "secret-file",
                                     "cluster-id", "out",   "coordinator-fd"};
static_assert(std::size(kOptionOf) == std::size(kLaunchEnvNames));

}  // namespace

std::vector<std::string> LaunchEnvAssignments(const LaunchEnv& e) {
  const std::string values[] = {
      std::to_string(e.rank),
      std::to_string(e.nodes),
      e.coordinator,
      e.secret_file,
      e.cluster_id,
      e.out_dir,
      e.coordinator_fd >= 0 ? std::to_string(e.coordinator_fd) : std::string()};
  static_assert(std::size(values) == std::size(kLaunchEnvNames));
  std::vector<std::string> out;
  for (size_t i = 0; i < std::size(kLaunchEnvNames); ++i)
    if (!values[i].empty()) out.push_back(std::string(kLaunchEnvNames[i]) + "=" + values[i]);
  return out;
}

std::map<std::string, std::string> ReadLaunchEnv() {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < std::size(kLaunchEnvNames); ++i) {
    const char* v = std::getenv(kLaunchEnvNames[i]);
    if (v != nullptr && *v != '\0') out[kOptionOf[i]] = v;
  }
  return out;
}

}  // namespace augur

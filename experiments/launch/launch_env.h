// LaunchEnv: the environment `augur launch` gives a program it starts (torchrun style).
//
// `augur launch --local N -- PROGRAM ARGS` (or --hostfile) starts PROGRAM once
// per rank with these variables set; augur.join() (experiments/python) reads
// them, as `augur run` reads SLURM_PROCID/OMPI_COMM_WORLD_RANK. They are the
// launcher's rank variables, the only environment Augur reads (DESIGN §4).
// Pure functions; ReadLaunchEnv reads the process environment.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace augur {

struct LaunchEnv {
  uint32_t rank = 0;
  uint32_t nodes = 1;
  std::string coordinator;  // HOST:PORT
  std::string secret_file;
  std::string cluster_id;
  std::string out_dir;  // the rank writes OUT/rank-R/result.json
  // Rank 0 under `launch --local`: the coordinator's listening socket,
  // already bound by the launcher (--coordinator-fd); -1: none.
  int coordinator_fd = -1;
};

// The variables, in the order they are set.
inline constexpr const char* kLaunchEnvNames[] = {
    "AUGUR_RANK",       "AUGUR_NODES", "AUGUR_COORDINATOR",   "AUGUR_SECRET_FILE",
    "AUGUR_CLUSTER_ID", "AUGUR_OUT",   "AUGUR_COORDINATOR_FD"};

// "NAME=value" for each variable of `e` that is set.
std::vector<std::string> LaunchEnvAssignments(const LaunchEnv& e);
// The variables set in this process, keyed by the `augur run` option each
// stands for ("rank", "nodes", "coordinator", "secret-file", "cluster-id", "out",
// "coordinator-fd").
std::map<std::string, std::string> ReadLaunchEnv();

}  // namespace augur

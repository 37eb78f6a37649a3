// RunConfig: the one typed configuration of a run, shared by every backend.
//
// Filled from CLI flags (experiments/cli), validated once by Validate(), and
// written next to every result (ToJson). Backend-specific sections are plain
// members; a backend ignores the others.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/base/status.h"
#include "core/testing/network_model.h"
#include "experiments/workloads/zipf_workload.h"

namespace augur {

struct RunConfig {
  std::string backend = "loopback";  // loopback | tcp | sim
  std::string workload = "zipf";
  std::string policy = "classic";
  uint32_t nodes = 4;
  uint32_t workers = 2;  // per node
  uint64_t seed = 1;
  std::string out_dir;   // empty: do not write result.json
  std::string pattern = "uniform";
  ZipfOptions zipf;      // epochs, verify and seed are mirrored into it by Validate()
  uint32_t epochs = 1;
  bool verify = false;
  // Loopback network model.
  NetworkModelOptions network;

  // Checks ranges and names; fills derived fields. Error names the flag.
  Status Validate();
  nlohmann::json ToJson() const;
};

}  // namespace augur

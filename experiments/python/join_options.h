// JoinOptions: what augur.join(...) (the Python module) was asked for, typed and validated.
//
// The keyword arguments of augur.join are the typed options of `augur run`,
// spelt with underscores (sync_period="2ms" is --sync-period 2ms). They are
// parsed by the very flag parsers `augur run` uses (experiments/cli/run_flags,
// tcp_flags) and validated by RunConfig::Validate and FinishTcpOptions, so a
// bad value gives the same one-line error. Options missing from the call
// come from the launch environment (experiments/launch/launch_env.h: set by
// `augur launch -- PROGRAM`), then from srun/mpirun's rank variables.
// Pure apart from reading the environment and the secret file.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/tcp/tcp_options.h"
#include "core/base/status.h"
#include "core/protocol/node.h"
#include "experiments/config/run_config.h"
#include "experiments/report/json_value.h"

namespace augur {

struct JoinRequest {
  uint32_t dim = 0;  // floats per value outside `layout`
  struct Range {
    Key first;
    Key last;  // inclusive
    uint32_t length;
  };
  std::vector<Range> layout;
  // `augur run` options by their Python names (sync_period), values as text
  // ("true"/"false" for the flags that take none).
  std::vector<std::pair<std::string, std::string>> options;
  std::string optimizer = "sum";  // how pushes apply at the main copy: sum | sgd | adagrad
  double lr = 0.1;
  double initial_accumulator = 0;  // adagrad
  double init_scale = 0;           // values start uniform in [-s, s) (seeded per key); 0: zeros
  // PrepareSample/PullSample draw keys uniformly from [first, last].
  std::optional<std::pair<Key, Key>> sample_range;
  std::string workload = "python";  // recorded as result.json's workload
};

struct JoinOptions {
  RunConfig config;  // validated; backend "tcp"
  tcp::TcpOptions tcp;
  NodeOptions node;
  std::string workload;
  JsonValue config_json;  // as result.json records it
};

// The Python names augur.join accepts besides dim/layout/optimizer/lr/...
const std::vector<std::string>& JoinOptionNames();
Result<JoinOptions> ParseJoinOptions(const JoinRequest& request);

}  // namespace augur

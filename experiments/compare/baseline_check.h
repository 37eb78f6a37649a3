// CheckBaselineRun: whether a result.json given to `augur compare --baseline`
// can stand in for the baseline compare would have run itself.
//
// It must be a JSON object of an `augur single` run of the workload whose
// fields compare reads have their types and sane values: epochs and
// workers_per_node positive integers, samples a finite number >= 0,
// epoch_seconds (and epoch_cpu_seconds, if there) non-empty arrays of finite
// numbers >= 0, diverged a boolean and not true (a diverged run is no
// reference), the headline quality (if measured) a
// finite number >= 0. It must also have trained what compare's own baseline
// would train: the same data (config.data_dir, as a path), seed and
// workload options (config.<workload>: dim, learning rate, batch size,
// negatives, ..., all but the modelled compute cost, which a single run
// does not use), and, unless it is the one-thread timing run (one epoch, no
// evaluation), the same epochs. A value the file does not record is not
// compared. Every error is one line naming the file and the field.
// Pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/base/status.h"

namespace augur {

struct BaselineExpectation {
  std::string workload;
  uint32_t epochs = 1;
  // RunConfig::ToJson of the `augur single` run compare would start (its
  // data_dir, seed and workload section are compared); null: not compared
  // (the Python workloads, whose baselines are programs of their own).
  const nlohmann::json* config = nullptr;
};

// The types and values every baseline file needs (before any other check).
Status CheckBaselineFields(const nlohmann::json& run, const std::string& path,
                           const std::string& workload);

// Whether `run` trained what the comparison's baseline would; `timing`: the
// one-thread timing run (its epochs and quality do not matter).
Status CheckBaselineSetup(const nlohmann::json& run, const std::string& path,
                          const BaselineExpectation& expected, bool timing);

}  // namespace augur

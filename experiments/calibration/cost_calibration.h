// Cost calibration for the simulator's compute model (`augur calibrate`).
//
// Measures on this machine, with the real core code:
//   seconds_per_key      a worker's CPU time per key access of the workload
//                        (one node, one worker, all keys local: the batch
//                        generation, store pull/push and the update maths);
//   seconds_per_message  and seconds_per_message_byte: Node::OnMessage's CPU
//                        time for pull and push requests of two batch sizes,
//                        fitted as fixed + per byte.
// Runs in the calling thread (plus the loopback runtime's own threads).
#pragma once

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "simulator/costs_file.h"

namespace augur {

// REQUIRES: config validated (workload zipf).
Result<SimCosts> CalibrateCosts(const RunConfig& config);

}  // namespace augur

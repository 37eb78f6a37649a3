// Cost calibration for the simulator (`augur calibrate`): what this machine
// and the real code cost, written to a costs file for `augur sim --costs`.
//
// Measures, with the real code:
//   worker cost  an Augur worker's CPU per training sample (kge|wv|mf:
//                seconds_per_sample) or per key access (zipf: seconds_per_key)
//                on the path a cluster node takes. Two real runs `augur
//                launch --local 2` (2 processes over TCP on loopback, the
//                given policy and flags) of E and E + extra epochs are
//                children of this process; the difference of their CPU time
//                (getrusage of the children), minus the messages' handling
//                cost below, over the difference of their samples.
//                Differencing removes start-up, data loading and evaluation;
//                the longer run gets more epochs until its extra CPU is at
//                least 4 s and twice the handling cost (at 0.5 s, mf's cost
//                per sample moved 352-771 ns between calibrations; at 4 s,
//                397-485 ns in three in a row).
//   message cost the protocol's handling of one incoming message, fixed +
//                per byte: Node::OnMessage for pull and push requests of 8
//                and 256 rows of the workload's layout, plus the socket's
//                CPU per message and per byte (both ends: syscalls, wake-ups)
//                from raw TCP ping-pongs of 64 B and 256 KiB on loopback.
//   cores        std::thread::hardware_concurrency().
//   loopback     one-way latency (the one-way time of a 64 B message between
//                two idle cores, each end pinned to its own, minus the
//                socket CPU the message costs with the cores awake: the
//                time it takes to wake a halted core) and bandwidth (the
//                extra one-way time of 256 KiB over 64 B).
// Runs in the calling thread, plus a ping-pong server thread and the child
// processes; writes only below options.work_dir.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/config/run_config.h"
#include "simulator/costs_file.h"

namespace augur {

struct CalibrationOptions {
  // The flags of the workload's runs (as for `augur launch -- ...`), without
  // --epochs, --out, --nodes and --workload (the calibration sets those).
  std::vector<std::string> run_flags;
  uint32_t base_epochs = 1;   // the shorter run
  uint32_t extra_epochs = 2;  // the longer run has base + extra
  std::string work_dir;       // child runs write here
};

// REQUIRES: config validated (its flags are run_flags).
Result<SimCosts> CalibrateCosts(const RunConfig& config, const CalibrationOptions& options);

}  // namespace augur

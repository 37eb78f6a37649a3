// Cost calibration for the simulator (`augur calibrate`): what this machine
// and the real code cost, written to a costs file for `augur sim --costs`.
//
// Measures, with the real code:
//   worker cost  an Augur worker's CPU per training sample (kge|wv|mf:
//                seconds_per_sample) or per key access (zipf: seconds_per_key)
//                on the path a cluster node takes, with a core of its own.
//                One real run `augur launch --local 2` (2 processes over TCP
//                on loopback, the given policy and flags, but measure_workers
//                workers per process: by default one per core of the
//                process, at most the job's --workers, so that no worker
//                waits for a core; the simulator models the sharing of a
//                host's cores) of base + extra epochs is a child of this
//                process. Each process records its CPU time (every thread)
//                and its frames and bytes per epoch (jobs/epoch_costs.h);
//                the epochs after the first base_epochs are measured: their
//                CPU, minus their messages' handling cost below, over their
//                samples. Skipping the first epochs leaves out start-up,
//                data loading, the first touches and evaluation; the run
//                gets more epochs until the measured CPU is at least 4 s and
//                twice the handling cost. (Before, the difference of two
//                runs' CPU carried the two runs' noise: with 4 workers per
//                process on this 2-core VM, kge on WordNet measured 5.6-11.3
//                us per triple in four calibrations; one run with one worker
//                per process, 6.9-8.4 us in three in a row, its measured
//                epochs within 5% of each other inside each run while the
//                machine's speed drifted between runs.)
//                The first epoch's own cost beyond that, per sample (its
//                CPU minus its handling, over its samples, minus the cost
//                above; at least 0), is first_epoch_extra_seconds_per_sample:
//                start-up work (first touches of the rows, page faults) that
//                `augur sim --costs` adds to a run's first epoch.
//   time-sliced  the same worker cost with the processes outnumbering the
//                cores: one run of `augur launch --local cores+1` (one worker
//                each, the same epochs measured; skipped above 8 cores).
//                Time slicing costs each sample more (switches, the cores'
//                caches shared): on the 2-core VM kge's 11.6 us per triple
//                became about 16 us at 3 processes, zipf's 0.64 us per key
//                0.85 us, while a message cost the same (11.7 against
//                12.2 us). `augur sim --time-sliced` charges it.
//                Its wake-up delay (time_sliced_wakeup_delay_seconds): with
//                more processes than cores a message waits for a core (held
//                by another process, or the one its thread last ran on),
//                which the simulated machine's ideal sharing does not show.
//                Fitted: `augur sim --time-sliced` of the same job (model
//                compute, up to 3 epochs) at delays of 0-1.6 ms on a grid,
//                refined where its epochs cross the real run's; the delay
//                whose epochs after the first come closest to the real ones
//                is kept. Not measured when the simulator cannot run the
//                job's flags.
//   message cost the CPU one message costs, fixed + per byte. The fixed
//                part from real processes: two zipf runs of `augur launch
//                --local 2` (1 worker each, classic, uniform keys) making the
//                same key accesses in batches of 64 and of 16, i.e. with one
//                and four times the messages; their CPU difference, less the
//                bytes' cost, over their message difference: every syscall,
//                wake-up and thread switch a message causes at both ends (on
//                the 2-core VM about 11 us). The per-byte part, and the fixed
//                part's floor: Node::OnMessage for pull and push requests of 8
//                and 256 rows of the workload's layout, plus the socket's CPU
//                from raw TCP ping-pongs of 64 B and 256 KiB on loopback with
//                both ends on one core (about 2.7 us). A workload run whose
//                messages would take over 90% of its CPU at the probe's figure
//                is charged the floor (message_cost_source says which).
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
  uint32_t base_epochs = 1;   // the run's first epochs, not measured
  uint32_t extra_epochs = 2;  // then measured (more until their CPU is 4 s)
  // Workers per process in the run (replacing the flags' --workers);
  // 0: MeasureWorkers().
  uint32_t measure_workers = 0;
  std::string work_dir;  // child runs write here
};

// The default workers per process of the calibration runs: one per core of
// each of the 2 processes on this machine (at least 1), at most the job's.
uint32_t MeasureWorkers(uint32_t job_workers);

// REQUIRES: config validated (its flags are run_flags).
Result<SimCosts> CalibrateCosts(const RunConfig& config, const CalibrationOptions& options);

}  // namespace augur

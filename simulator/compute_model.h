// ComputeModel: turns modelled or measured compute into simulated work.
//
// Modelled compute is given in seconds on a reference host of 1 Gflop/s
// (kReferenceFlopsPerSecond); it is executed as flops on the node's host, so
// `--host-speed 2Gf` halves it. Modes (see ComputeMode):
//   model / hybrid  charge exactly the modelled seconds: bit-reproducible;
//   measured        charge the thread CPU time the calling actor's own code
//                   used since its last charge, not reproducible.
// Measured mode needs to know when an actor leaves and re-enters the CPU:
// every runtime call that yields to SimGrid is bracketed by BeforeYield()
// and AfterYield() (no-ops in the other modes).
// Threading: called only from SimGrid actors of one simulation (one at a time).
#pragma once

#include <cstdint>
#include <vector>

#include "simulator/costs_file.h"
#include "simulator/sim_options.h"

namespace augur {

constexpr double kReferenceFlopsPerSecond = 1e9;

class ComputeModel {
 public:
  ComputeModel(ComputeMode mode, SimCosts costs);

  ComputeMode mode() const { return mode_; }
  const SimCosts& costs() const { return costs_; }

  // Flops to execute for a worker's Compute(modelled_seconds).
  double WorkerFlops(double modelled_seconds);
  // Flops to execute after handling one incoming message of `bytes`; for
  // the first message of a parcel the protocol context took without
  // sleeping, AwakeMessageFlops; for the second and later messages of a
  // parcel, CoalescedMessageFlops.
  double MessageFlops(uint64_t bytes);
  double AwakeMessageFlops(uint64_t bytes) const {
    return costs_.AwakeMessageSeconds(bytes) * kReferenceFlopsPerSecond;
  }
  double CoalescedMessageFlops(uint64_t bytes) const {
    return costs_.CoalescedMessageSeconds(bytes) * kReferenceFlopsPerSecond;
  }
  // Flops a sender spends on `bytes` that waited for a busy link (modelled
  // in every mode: measured mode has no kernel to measure).
  double QueuedFlops(uint64_t bytes) const {
    return costs_.seconds_per_queued_byte * static_cast<double>(bytes) * kReferenceFlopsPerSecond;
  }

  void BeforeYield();
  void AfterYield();

 private:
  struct Meter {
    double mark = -1;        // thread CPU seconds when the actor last resumed; -1: unknown
    double accumulated = 0;  // own CPU seconds not yet charged
  };
  Meter& Current();
  double TakeMeasured();

  const ComputeMode mode_;
  const SimCosts costs_;
  std::vector<Meter> meters_;  // indexed by SimGrid actor id (measured mode only)
};

}  // namespace augur

// SimRuntime: the core's Runtime for one node of a SimGrid simulation.
//
// Owned by SimCluster (one per node); the Node holds a reference to it.
// - Send: the frame is queued on the node's Nic, which carries it to the
//   destination in a parcel of exactly its frames' bytes (nic.h).
// - Now: the simulated clock. Compute: executes the modelled flops on the
//   node's host (ComputeModel). CpuSeconds: every flop charged to the node.
// - SetTimer: a timer parcel due at now + delay goes into the node's Inbox,
//   so OnTimer runs in the protocol context like OnMessage.
// - Mutex: a checked no-op. SimGrid actors are cooperative and the core's
//   critical sections never call the runtime, so the lock is never contended;
//   a re-entry aborts with context (it would be a core bug).
// - Parker: a SimGrid semaphore plus a permit flag.
// Threading: called only from SimGrid actors of this simulation (and from the
// Node constructor before the simulation starts).
#pragma once

#include <memory>
#include <vector>

#include "core/runtime/runtime.h"

namespace augur {

class SimCluster;
class ComputeModel;

class SimRuntime final : public Runtime {
 public:
  SimRuntime(SimCluster& cluster, ComputeModel& compute, NodeId self, uint32_t nodes);

  NodeId self() const override { return self_; }
  uint32_t num_nodes() const override { return nodes_; }
  void Send(NodeId to, std::vector<uint8_t> frame) override;
  double Now() override;
  const char* ClockName() const override { return "simulated"; }
  // Ends the simulation with the error (SimCluster::Abort, as a protocol
  // error does): every other actor is killed, the run returns it.
  void Fail(const Status& error) override;
  // The CPU the model charged to this node (SimCluster::ChargedCpuSeconds).
  double CpuSeconds() override;
  void Compute(double seconds) override;
  void SetTimer(double delay_seconds, uint64_t timer_id) override;
  std::unique_ptr<Mutex> NewMutex() override;
  std::unique_ptr<Parker> NewParker() override;

 private:
  SimCluster& cluster_;
  ComputeModel& compute_;
  const NodeId self_;
  const uint32_t nodes_;
};

}  // namespace augur

// SimCluster: N nodes of the real core inside one SimGrid simulation.
//
// Owns the SimGrid engine (one per process: SimGrid 3.32 cannot run two
// engines in one process), the platform, one SimRuntime, Nic, Inbox and Node
// per node, and the pool of parcels. Run() places on each node's host one
// protocol actor (takes parcels from the node's Inbox, calling
// Node::OnMessage/OnTimer), one NIC actor (sends the node's frames, merged
// per destination: nic.h), one wire actor (receives them) and one actor per
// worker, then runs the simulation
// until every worker returned, a protocol error occurred or an injected node
// failure ended the run.
// Network model: CM02 without cross-traffic for bandwidth and sharing (LV08,
// SimGrid's default, multiplies small-message latency ~13x; CM02 gives
// textbook size/bandwidth). Link latencies are taken out of SimGrid's links
// when the platform is built and applied per route by the Nic (RouteBetween).
// Not thread-safe: Create, Run() once, inspect.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/rng.h"
#include "core/base/status.h"
#include "core/protocol/node.h"
#include "simulator/compute_model.h"
#include "simulator/parcel.h"
#include "simulator/platform_builder.h"
#include "simulator/sim_options.h"

namespace simgrid::s4u {
class Link;
class Mailbox;
}  // namespace simgrid::s4u

namespace augur {

class SimRuntime;
class Nic;
class Inbox;

struct SimClusterOptions {
  uint32_t nodes = 1;
  NodeOptions node;
  SimOptions sim;
};

struct SimRunStats {
  uint64_t messages = 0;         // frames sent through the simulated network
  uint64_t bytes = 0;            // their encoded bytes
  uint64_t comms = 0;            // SimGrid comms that carried them (parcels: the Nic merges)
  uint64_t timers = 0;           // timers fired
  double simulated_seconds = 0;  // simulated clock when the run ended
  uint32_t workers_finished = 0;
  std::optional<NodeFailure> failure;  // set when --fail-node ended the run
};

class SimCluster {
 public:
  // Creates the engine and the platform. Error names what is wrong. Replaces
  // SimGrid's SIGINT handler (it dumps every actor and exits 1) with one that
  // prints one line and exits 130, as an interrupted command does.
  static Result<std::unique_ptr<SimCluster>> Create(SimClusterOptions options);
  ~SimCluster();
  SimCluster(const SimCluster&) = delete;
  SimCluster& operator=(const SimCluster&) = delete;

  Node& node(NodeId n) { return *nodes_[n]; }
  uint32_t num_nodes() const { return static_cast<uint32_t>(nodes_.size()); }
  const Platform& platform() const { return platform_; }
  const SimRunStats& stats() const { return stats_; }
  const ComputeModel& compute() const { return compute_; }

  // Called from SimGrid's maestro about every 1024 simulated time steps
  // (for a progress line); must not call into the simulation.
  void SetProgressHook(std::function<void(double simulated_now)> hook);

  // Runs body(worker) for every worker of every node, each as its own actor.
  // Returns the first protocol error, a deadlock report, or OK (also when an
  // injected failure ended the run: see stats().failure).
  Status Run(const std::function<void(Worker&)>& body);

  // --- used by the runtime and the actors (from actor context) ---
  void Send(NodeId from, NodeId to, std::vector<uint8_t> frame);
  void StartTimer(NodeId node, double delay_seconds, uint64_t timer_id);
  Nic& nic(NodeId n) { return *nics_[n]; }
  Inbox& inbox(NodeId n) { return *inboxes_[n]; }
  simgrid::s4u::Mailbox* wire(NodeId n) { return wires_[n]; }
  // Transfers currently entering node n (for the NICs' choice of destination).
  uint32_t TransfersInto(NodeId n) const { return transfers_into_[n]; }
  void TransferStarted(NodeId to) { ++transfers_into_[to]; }
  void TransferEnded(NodeId to) { --transfers_into_[to]; }
  // How long node n waits before it handles a parcel that just arrived,
  // beyond the link: its scheduler taking a core from a busy worker. On a
  // host with no core to spare (workers >= cores) a draw from an exponential
  // distribution of mean SimCosts::wakeup_delay_seconds (deterministic: a
  // seeded stream per node) while the cores it computes on (its host's, or
  // the shared machine's) all compute, else 0. Time-sliced
  // (SimOptions::time_sliced) with SimCosts::time_sliced_wakeup_delay_seconds
  // measured: a draw of that mean for every parcel.
  double WakeupDelay(NodeId n);
  // Where node n's workers and protocol compute: the shared machine
  // (SimOptions::shared_cores), else its own host.
  simgrid::s4u::Host* ComputeHost(NodeId n) const {
    return platform_.machine != nullptr ? platform_.machine : platform_.hosts[n];
  }
  // Sum of the platform's latencies on the route from -> to (seconds).
  // A route's latency (seconds: the sum of its links') and bottleneck
  // bandwidth (bytes per second: its slowest link's).
  struct Route {
    double latency = 0;
    double bandwidth = 0;
  };
  Route RouteBetween(NodeId from, NodeId to) const;
  ParcelPool& parcels() { return parcels_; }
  ComputeModel& compute_model() { return compute_; }
  void WorkerFinished() { ++stats_.workers_finished; }
  // Parked workers of node n woken so far (SimRuntime's parkers count them):
  // the protocol actor charges a parcel whose handling woke one a wake-up.
  void WorkerWoken(NodeId n) { ++worker_wakeups_[n]; }
  uint64_t WorkerWakeups(NodeId n) const { return worker_wakeups_[n]; }
  void TimerFired() { ++stats_.timers; }
  // CPU the model charged to node n so far: its workers' compute, its
  // protocol actor's handling and timers, a throttled sender's bytes. Read
  // in seconds of one core of its host (SimRuntime::CpuSeconds).
  void Charged(NodeId n, double flops) { charged_flops_[n] += flops; }
  double ChargedCpuSeconds(NodeId n) const;
  // Ends the simulation now: records the failure (if any) or error, kills every other actor.
  void Abort(Status error, std::optional<NodeFailure> failure);

 private:
  explicit SimCluster(SimClusterOptions options);
  Status Init();

  SimClusterOptions options_;
  std::vector<std::string> engine_args_;
  std::unique_ptr<simgrid::s4u::Engine> engine_;  // destroyed last (declared first)
  ComputeModel compute_;
  Platform platform_;
  std::unordered_map<const simgrid::s4u::Link*, double> link_latency_;  // as built
  ParcelPool parcels_;  // before the nics: they hold parcels
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<std::unique_ptr<Inbox>> inboxes_;
  std::vector<simgrid::s4u::Mailbox*> wires_;  // per node: where NICs put its parcels
  std::vector<uint32_t> transfers_into_;       // per node
  std::vector<uint64_t> worker_wakeups_;       // per node: WorkerWoken
  std::vector<double> charged_flops_;          // per node: Charged
  std::vector<std::unique_ptr<SimRuntime>> runtimes_;
  double wakeup_mean_ = 0;        // WakeupDelay's mean; 0: none
  bool wakeup_always_ = false;    // the time-sliced delay: busy cores or not
  std::vector<Rng> wakeup_rngs_;  // per node
  std::vector<std::unique_ptr<Node>> nodes_;
  std::function<void(double)> progress_hook_;
  SimRunStats stats_;
  Status first_error_;
  bool aborted_ = false;
};

}  // namespace augur

// SimCluster: N nodes of the real core inside one SimGrid simulation.
//
// Owns the SimGrid engine (one per process: SimGrid 3.32 cannot run two
// engines in one process), the platform, one SimRuntime and one Node per
// node. Run() places on each node's host one protocol actor (the one posted
// receive of the node's mailbox, calling Node::OnMessage/OnTimer) and one
// actor per worker, then runs the simulation until every worker returned,
// a protocol error occurred or an injected node failure ended the run.
// Network model: CM02 without cross-traffic (LV08, SimGrid's default,
// multiplies small-message latency ~13x; CM02 gives textbook
// latency + size/bandwidth). Not thread-safe: Create, Run() once, inspect.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/protocol/node.h"
#include "simulator/compute_model.h"
#include "simulator/platform_builder.h"
#include "simulator/sim_options.h"

namespace simgrid::s4u {
class Mailbox;
}  // namespace simgrid::s4u

namespace augur {

class SimRuntime;

struct SimClusterOptions {
  uint32_t nodes = 1;
  NodeOptions node;
  SimOptions sim;
};

struct SimRunStats {
  uint64_t messages = 0;         // frames sent through the simulated network
  uint64_t bytes = 0;            // their encoded bytes
  uint64_t timers = 0;           // timers fired
  double simulated_seconds = 0;  // simulated clock when the run ended
  uint32_t workers_finished = 0;
  std::optional<NodeFailure> failure;  // set when --fail-node ended the run
};

class SimCluster {
 public:
  // Creates the engine and the platform. Error names what is wrong.
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
  simgrid::s4u::Mailbox* mailbox(NodeId n) { return mailboxes_[n]; }
  ComputeModel& compute_model() { return compute_; }
  void WorkerFinished() { ++stats_.workers_finished; }
  void TimerFired() { ++stats_.timers; }
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
  std::vector<simgrid::s4u::Mailbox*> mailboxes_;
  std::map<std::pair<NodeId, NodeId>, uint64_t> send_seq_;  // per (from, to): next sequence number
  std::vector<std::unique_ptr<SimRuntime>> runtimes_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::function<void(double)> progress_hook_;
  SimRunStats stats_;
  Status first_error_;
  bool aborted_ = false;
};

}  // namespace augur

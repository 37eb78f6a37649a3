// LoopbackCluster: N nodes of the real core in one process, on a virtual clock.
//
// The deterministic runtime for unit tests and quick sweeps: messages are real
// encoded frames delivered through the analytic NetworkModel, workers run as
// VirtualScheduler contexts, and the same seed gives the same interleaving,
// times and results. Not thread-safe: construct, Run() once, inspect.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/loopback/network_model.h"
#include "backends/loopback/virtual_scheduler.h"
#include "core/base/status.h"
#include "core/protocol/node.h"

namespace augur {

struct LoopbackOptions {
  uint32_t nodes = 1;
  NodeOptions node;  // workers per node, layout, initializer
  NetworkModelOptions network;
  // The largest frame the network carries (0: the codec's own limit), as
  // TCP's --max-frame-bytes: nodes split larger messages; a larger frame
  // stops the process with its type and size (AUGUR_CHECK).
  size_t max_frame_bytes = 0;
};

class LoopbackRuntime;

class LoopbackCluster {
 public:
  explicit LoopbackCluster(LoopbackOptions options);
  ~LoopbackCluster();

  Node& node(NodeId n) { return *nodes_[n]; }
  uint32_t num_nodes() const { return static_cast<uint32_t>(nodes_.size()); }
  double Now() const { return scheduler_.Now(); }

  // Runs body(worker) for every worker of every node, each as its own
  // context, until all return. Returns the first protocol error, if any, or
  // the error a node failed the run with (Runtime::Fail: a stalled
  // operation), which ended every worker's waits.
  Status Run(const std::function<void(Worker&)>& body);

 private:
  friend class LoopbackRuntime;
  void Deliver(NodeId from, NodeId to, std::vector<uint8_t> frame);
  // A node failed the run: the error becomes the run's (unless a protocol
  // error came first), and every worker of every node is cancelled
  // (Parker::Cancel), so their waits, barriers included, end at once and the
  // jobs return.
  void Fail(const Status& error);

  VirtualScheduler scheduler_;
  NetworkModel network_;
  std::vector<std::unique_ptr<LoopbackRuntime>> runtimes_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<Parker*> parkers_;  // every worker's, owned by the nodes
  size_t max_frame_bytes_;
  Status first_error_;
};

}  // namespace augur

// PythonNode: one node of a TCP cluster hosted by a Python process (augur.join).
//
// The same core and runtime as `augur run` (experiments/drivers/tcp_driver):
// Join() starts a TcpRuntime and a Node on it and returns once the cluster
// is up; the caller's threads then use worker(i) (one thread per worker, as
// core/api/worker.h requires) and call Finish() once every worker is done.
// While workers run, a watchdog thread waits on the transport: a peer lost
// is fatal, as for `augur run`: it prints "augur: rank R: lost rank P: ...",
// stops delivery and cancels the workers (TcpRuntime::Abandon), so every
// wait from then on raises that error in Python and Finish() returns it.
// Threading: worker(i) from its one thread; Metrics() from any thread;
// Join/Finish/destructor from one thread, with no worker call in progress.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backends/tcp/tcp_runtime.h"
#include "core/base/status.h"
#include "core/protocol/node.h"
#include "experiments/python/join_options.h"
#include "experiments/report/json_value.h"

namespace augur {

// What the training script measured, recorded in result.json.
struct PythonReport {
  std::vector<double> epoch_seconds;  // empty: the time from Join to Finish as one epoch
  uint64_t samples = 0;
  std::optional<bool> verified;
  JsonValue extra = JsonValue::Object();  // merged into result.json (e.g. quality)
};

class PythonNode {
 public:
  // Blocks until every rank joined (or the join failed: error). While the
  // node joins or a worker waits, `interrupted` is called every 50 ms from
  // the waiting thread; once it returns true the join fails, or the node is
  // abandoned (Abandon) and every wait ends (TcpRuntime::SetInterruptCheck).
  // Null: the waits are not interrupted.
  static Result<std::unique_ptr<PythonNode>> Join(JoinOptions options,
                                                  std::function<bool()> interrupted = nullptr);
  ~PythonNode();
  PythonNode(const PythonNode&) = delete;
  PythonNode& operator=(const PythonNode&) = delete;

  // REQUIRES: i < num_workers(), !finished().
  Worker& worker(uint32_t i) { return node_->worker(i); }
  uint32_t num_workers() const { return node_->num_workers(); }
  uint32_t rank() const { return options_.tcp.rank; }
  uint32_t num_nodes() const { return options_.tcp.nodes; }
  const ValueLayout& layout() const { return node_->layout(); }
  const JoinOptions& options() const { return options_; }
  bool finished() const { return finished_; }
  // Any thread: the error that stopped the node (a lost peer), else ok.
  Status failure() const;

  // This node's counters so far, as result.json names them.
  nlohmann::json Metrics();
  // Any thread: leaves the cluster at once, without goodbye (the other nodes
  // see this rank lost): the failure becomes "rank R: `why`" (unless the node
  // failed already) and every worker's wait ends with it.
  void Abandon(const std::string& why);
  // Writes OUT/rank-R/result.json when an out directory was given, and
  // returns the result. Call once. drain: first the goodbye protocol, which
  // waits until every node said goodbye; else the node is abandoned first
  // (a rank that stops on its own, e.g. a diverged run: the others see it
  // lost) and the result is written even after a failure.
  // Refused before anything is done (the node keeps running): an epoch time
  // that is not a finite number >= 0, or an `extra` field that result.json
  // measures itself (CheckReport).
  Result<nlohmann::json> Finish(const PythonReport& report, bool drain = true);
  Status CheckReport(const PythonReport& report) const;

 private:
  explicit PythonNode(JoinOptions options);
  void StopWatchdog();

  JoinOptions options_;
  const std::chrono::steady_clock::time_point start_;
  std::unique_ptr<tcp::TcpRuntime> runtime_;
  std::unique_ptr<Node> node_;
  std::atomic<bool> stop_watchdog_{false};
  std::thread watchdog_;
  mutable std::mutex failure_mu_;
  Status failure_;  // guarded by failure_mu_
  bool finished_ = false;
};

}  // namespace augur

// TcpRuntime: the real-time Runtime (core/runtime/runtime.h) of one node process.
//
// Owns the TcpTransport. Node::OnMessage and Node::OnTimer are called one at
// a time (under the transport's handler mutex): from its I/O thread, or
// OnMessage from a parked worker that reads replies off the sockets itself
// (TcpTransport::WaitParked). Workers are real threads; Mutex is std::mutex,
// Parker a permit that a worker waits for inside WaitParked. Now() is wall time since
// construction; Compute() returns at once (real work takes real time).
// The node's stall watchdog runs at its sync rounds and, since a cluster
// whose policy runs no sync timer (classic) has none, on a tick of this
// runtime's own on the I/O thread (Node::CheckStalls, every quarter of the
// limit, at most a second apart). A stall fails the transport (Fail), as a
// lost peer does: the driver's WaitFor returns its error.
// Lifecycle: construct, build the Node on it, Start(node), run workers,
// Finish(); the Node must outlive the runtime's I/O thread (destroy the
// runtime first, or call Finish(): after it no message or timer reaches the
// Node). After a failure (a lost peer: the transport's WaitFor returns an
// error), Abandon() instead of Finish(): it cancels the workers so they
// return, and the node shuts down through the same steps.
// Asio stays out of this header: the transport is held by pointer (include
// backends/tcp/tcp_transport.h to call transport()).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/tcp/tcp_options.h"
#include "core/protocol/node.h"
#include "core/runtime/runtime.h"

namespace augur::tcp {

class TcpTransport;

class TcpRuntime final : public Runtime {
 public:
  explicit TcpRuntime(TcpOptions options);
  ~TcpRuntime() override;

  // Before Start(): makes the node's blocking waits interruptible. A thread
  // blocked in Start() or Finish() or parked in a worker's wait calls
  // `interrupted()` every `period`; once it returns true, the node is
  // abandoned (Abandon(): every worker's wait ends with an error) and
  // Start() or Finish() fails ("interrupted ..."). The Python module checks
  // for Ctrl-C so (experiments/python).
  void SetInterruptCheck(std::function<bool()> interrupted, std::chrono::milliseconds period);
  // Joins the cluster; messages are delivered to `node` from then on.
  Status Start(Node* node);
  // After every local worker returned: goodbye/drain (see tcp_transport.h);
  // with `limit_seconds`, for at most that long (TcpTransport::Finish).
  Status Finish(std::optional<double> limit_seconds = std::nullopt);
  // Any thread, after a failure, instead of Finish(): from now on no message
  // or timer reaches the node and nothing more is sent, and every parker this
  // runtime made is cancelled (core/runtime/runtime.h), so the workers' waits
  // end with an error and the job returns. Then join the workers and destroy
  // the runtime, as after Finish().
  void Abandon();
  TcpTransport& transport() { return *transport_; }

  NodeId self() const override;
  uint32_t num_nodes() const override;
  void Send(NodeId to, std::vector<uint8_t> frame) override;
  size_t MaxFrameBytes() const override;
  double Now() override;
  const char* ClockName() const override { return "wall"; }
  // The transport fails with the error (TcpTransport::Fail), as on a lost
  // peer: whoever waits for the workers (the driver's WaitFor) abandons the
  // node, and the command prints the error and exits non-zero.
  void Fail(const Status& error) override;
  // The process's CPU (user + system, every thread; getrusage): one node per process.
  double CpuSeconds() override;
  void Compute(double seconds) override;
  void SetTimer(double delay_seconds, uint64_t timer_id) override;
  std::unique_ptr<Mutex> NewMutex() override;
  std::unique_ptr<Parker> NewParker() override;
  SpinYield StoreSpinYield() const override;

 private:
  class Delivery;  // the transport's Receiver: frames to node_ until finished_
  Status OnData(NodeId from, std::span<const uint8_t> frame);
  // One receive round begins (true) or ends (false): the node's sends are
  // held across it (Node::HoldSends), so its answers leave together.
  void HoldSends(bool hold);
  // Node::CheckStalls every `period`, until the node is finished or abandoned.
  void ArmStallTick(double period);

  const std::chrono::steady_clock::time_point start_;
  Node* node_ = nullptr;       // set by Start, before the I/O thread or a worker reads it
  bool finished_ = false;      // Finish() returned; guarded by the transport's handler mutex
  int open_rounds_ = 0;        // receive rounds begun, not ended; guarded likewise
  bool node_holding_ = false;  // the outermost round holds the node's sends; likewise
  std::mutex parkers_mu_;
  std::vector<Parker*> parkers_;  // guarded by parkers_mu_; owned by the node's workers
  std::unique_ptr<Delivery> delivery_;
  std::unique_ptr<TcpTransport> transport_;
};

}  // namespace augur::tcp

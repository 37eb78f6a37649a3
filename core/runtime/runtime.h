// Runtime: everything a node's core needs from the outside world.
//
// This is the boundary of core/ (DESIGN.md §1). One Runtime per node, injected
// into the Node; never looked up globally. Three implementations:
//   backends/loopback/  many nodes in one process, virtual clock, seeded order
//   backends/tcp/       real threads, sockets, wall clock
//   simulator/          SimGrid actors, mailboxes, simulated clock
//
// Contract for implementations:
// - Send() never blocks on the network and never calls back into the Node
//   synchronously; messages from one node to another arrive in send order
//   (per-pair FIFO) via Node::OnMessage, which the runtime calls from its
//   protocol context (one at a time per node).
// - Handlers (OnMessage/OnTimer) never block; only workers wait, through a
//   Parker.
// - Self-sends are allowed and delivered like any other message.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/spin_yield.h"
#include "core/base/status.h"
#include "core/base/types.h"
#include "core/codec/codec.h"

namespace augur {

// A mutual-exclusion lock for the protocol engine's state. Critical sections
// guarded by it never call into the runtime (so a cooperative runtime may
// implement it as a checked no-op).
class Mutex {
 public:
  virtual ~Mutex() = default;
  virtual void lock() = 0;
  virtual void unlock() = 0;
};

// Blocks one worker until woken. Permit semantics: Unpark() before Park()
// makes the next Park() return at once; spurious returns are allowed, so
// callers re-check their condition in a loop.
// Cancellation is for good: Cancel() (any context, idempotent) wakes the
// owner if it is parked, and from then on cancelled() holds and the owner's
// waits end at once with an error (Worker never parks a cancelled parker
// again). A runtime whose node can lose a peer (TCP) cancels its workers'
// parkers to shut the node down; the others never do.
class Parker {
 public:
  virtual ~Parker() = default;
  virtual void Park() = 0;    // called only by the worker that owns this parker
  virtual void Unpark() = 0;  // called from any context
  void Cancel() {
    cancelled_.store(true, std::memory_order_release);
    Unpark();
  }
  bool cancelled() const { return cancelled_.load(std::memory_order_acquire); }

 private:
  std::atomic<bool> cancelled_{false};
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual NodeId self() const = 0;
  virtual uint32_t num_nodes() const = 0;
  // Hands an encoded frame (core/codec) to the network. Never blocks.
  virtual void Send(NodeId to, std::vector<uint8_t> frame) = 0;
  // The largest frame Send() carries (TCP: --max-frame-bytes). The node
  // splits larger messages by keys; a receiver refuses larger frames.
  virtual size_t MaxFrameBytes() const { return kHeaderBytes + kMaxBodyBytes; }
  // Seconds since the run started (virtual, simulated or wall time).
  virtual double Now() = 0;
  // What Now() counts, for messages: "simulated", "virtual" or "wall".
  virtual const char* ClockName() const = 0;
  // CPU seconds this node has used so far, every context of it together (its
  // workers, its protocol handling, its timers): on TCP the process's (one
  // node per process), in the simulator what the model charged to the node's
  // host. Negative where the runtime cannot tell (loopback). For reports
  // only: nothing in the core reads it.
  virtual double CpuSeconds() { return -1; }
  // Called by a worker: charge `seconds` of modelled computation to it.
  // The real-time runtime returns at once (real work takes real time).
  virtual void Compute(double seconds) = 0;
  // Calls Node::OnTimer(timer_id) after `delay_seconds`, from the protocol context.
  virtual void SetTimer(double delay_seconds, uint64_t timer_id) = 0;
  virtual std::unique_ptr<Mutex> NewMutex() = 0;
  virtual std::unique_ptr<Parker> NewParker() = 0;
  // Ends the run with `error`: the node found that it cannot go on (an
  // operation stalled: core/protocol/stall_watchdog.h). Called from the
  // protocol context without the engine lock, at most once per node. The
  // runtime ends the waits of every worker it hosts (cancels their parkers,
  // or ends the simulation) and makes `error` the run's outcome, which the
  // command prints as its one line before it exits non-zero.
  virtual void Fail(const Status& error) = 0;
  // What a thread spinning on a held store lock calls now and then
  // (core/base/spin_yield.h): real threads yield the core; null (the default) where
  // contexts never run at once.
  virtual SpinYield StoreSpinYield() const { return nullptr; }
};

}  // namespace augur

// Effects: everything one engine call produces, issued after the engine lock
// is released.
//
// Built under an EngineLock (engine_context.h): the messages (Outbox) move to
// the node's send queue before the lock is released, then
// EngineContext::Flush sends them, wakes the parkers and arms the sync timer.
// Plain data, owned by the engine call that builds it (one thread).
#pragma once

#include <cstddef>
#include <vector>

#include "core/protocol/outbox.h"
#include "core/runtime/runtime.h"

namespace augur {

struct Effects {
  Outbox out;
  std::vector<Parker*> wake;  // workers to unpark
  bool arm_timer = false;     // start the sync timer (replication/intent is in use)
  size_t pull_values = 0;     // floats a pull request being handled may answer with
  // A worker's call (not a handler's): its messages leave at once, even while
  // the protocol thread holds the send queue for a round of frames
  // (SendQueue::Hold). A protocol thread that loses its core in the middle of
  // a round would otherwise keep the worker's requests with it until it runs
  // again: milliseconds on a node whose workers fill its cores.
  bool send_now = false;

  // The effects of a worker's call into the engine (send_now set).
  static Effects ForWorker() {
    Effects fx;
    fx.send_now = true;
    return fx;
  }
};

}  // namespace augur

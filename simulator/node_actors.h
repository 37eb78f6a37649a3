// The actors of one simulated node, and the envelope they exchange.
//
// Protocol actor: daemon; the node's single posted receive. It loops on the
//   node's mailbox (the mailbox's permanent receiver, so transfers start when
//   sent and contend in the network model) and calls Node::OnMessage, or
//   Node::OnTimer for a timer envelope, one at a time; then charges the
//   modelled handling cost. A protocol error aborts the whole simulation.
// Worker actor: runs the job's body on one Worker, then reports finished.
// Timer actor: daemon; sleeps `delay` and drops a timer envelope (0 bytes,
//   over the host's zero-latency loopback) into the node's mailbox.
// An envelope is owned by whoever holds its pointer: the sender until the
// put, the mailbox until the get, then the receiving protocol actor; one left
// in flight when the simulation ends is freed by the comm's clean function.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/api/worker.h"
#include "core/base/types.h"

namespace augur {

class SimCluster;

struct Envelope {
  NodeId from = 0;
  bool timer = false;
  uint64_t timer_id = 0;
  std::vector<uint8_t> frame;
  // Per (from, to) sequence number: concurrent SimGrid comms of different
  // sizes can complete out of order, so the receiver restores send order
  // (the Runtime contract promises per-pair FIFO).
  uint64_t seq = 0;
};
void DeleteEnvelope(void* envelope);

void ProtocolActor(SimCluster* cluster, NodeId node);
void WorkerActor(SimCluster* cluster, Worker* worker, const std::function<void(Worker&)>* body);
void TimerActor(SimCluster* cluster, NodeId node, double delay_seconds, uint64_t timer_id);

}  // namespace augur

#include "simulator/nic.h"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <string>
#include <utility>

#include "simulator/inbox.h"
#include "simulator/parcel.h"
#include "simulator/sim_cluster.h"

namespace augur {

namespace sg4 = simgrid::s4u;

Nic::Nic(SimCluster& cluster, NodeId self, uint32_t nodes)
    : cluster_(cluster), self_(self), channels_(nodes), wake_(sg4::Semaphore::create(0)) {}

void Nic::Queue(NodeId to, std::vector<uint8_t> frame) {
  if (to == self_) {
    Parcel* p = cluster_.parcels().Take();
    p->from = self_;
    p->bytes = frame.size();
    p->frames.push_back(std::move(frame));
    cluster_.inbox(self_).Push(p, sg4::Engine::get_clock());
    return;
  }
  Channel& ch = channels_[to];
  const bool first = ch.pending == nullptr;
  if (first) {
    ch.pending = cluster_.parcels().Take();
    ch.pending->from = self_;
  }
  ch.pending->bytes += frame.size();
  ch.pending->frames.push_back(std::move(frame));
  if (first) {
    ready_.push_back(to);
    // release() is a simcall: the NIC actor may run (and take the parcel) before it returns.
    if (parked_) {
      parked_ = false;
      wake_->release();
    }
  }
}

void Nic::Run() {
  sg4::Actor::self()->daemonize();
  for (;;) {
    if (ready_.empty()) {
      parked_ = true;
      wake_->acquire();
      continue;
    }
    const NodeId to = ready_.front();
    ready_.pop_front();
    Channel& ch = channels_[to];
    Parcel* p = ch.pending;
    ch.pending = nullptr;  // frames queued from now on leave in the next parcel
    ++transfers_;
    try {
      // A mailbox comm, not Comm::sendto: 3.32 keeps one-sided comms in one
      // engine-wide list and scans it when each finishes (measured: 33% of the
      // time at 1024 nodes). The receiving node's wire actor takes it.
      cluster_.wire(to)->put(p, p->bytes);
    } catch (const simgrid::Exception& e) {
      // Only --fail-node turns hosts off, and it ends the run at once: not expected.
      cluster_.Abort(Status::Error("node " + std::to_string(self_) + ": a transfer to node " +
                                   std::to_string(to) + " failed: " + e.what()),
                     std::nullopt);
      return;
    }
  }
}

double Nic::LatencyTo(NodeId to) {
  Channel& ch = channels_[to];
  if (ch.latency < 0) ch.latency = cluster_.RouteLatency(self_, to);
  return ch.latency;
}

}  // namespace augur

#include "simulator/nic.h"

#include <algorithm>
#include <limits>
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
  if (first && !ch.on_wire) MakeReady(to);
}

void Nic::MakeReady(NodeId to) {
  ready_.push_back(to);
  if (parked_ > 0) {
    --parked_;
    // A simcall: a lane may run (and take the parcel) before it returns.
    wake_->release();
  }
}

void Nic::Run() {
  sg4::Actor::self()->daemonize();
  for (;;) {
    if (ready_.empty()) {
      ++parked_;
      wake_->acquire();
      continue;
    }
    const NodeId to = PickReady();
    Channel& ch = channels_[to];
    Parcel* p = ch.pending;
    ch.pending = nullptr;  // frames queued from now on leave in the next parcel
    ch.on_wire = true;
    // Without a bucket every byte waits for the link.
    const uint64_t waiting = cluster_.compute_model().costs().queued_byte_burst > 0
                                 ? WaitingBytes(to, p->bytes)
                                 : p->bytes;
    const double queued_flops = cluster_.compute_model().costs().seconds_per_queued_byte > 0
                                    ? cluster_.compute_model().QueuedFlops(waiting)
                                    : 0.0;
    ++on_wire_;
    cluster_.TransferStarted(to);
    sg4::ExecPtr cpu;  // the waiting sender's CPU, beside the transfer (nic.h)
    try {
      if (queued_flops > 0) {
        cluster_.Charged(self_, queued_flops);
        cpu = sg4::this_actor::exec_async(queued_flops);
      }
      Transmit(to, p, p->bytes - waiting);
      if (cpu) cpu->wait();
    } catch (const simgrid::Exception& e) {
      if (cpu && !cpu->test()) cpu->cancel();
      if (!cluster_.platform().hosts[to]->is_on()) {
        // --fail-node turned the receiver off; its injector ends the run next.
        if (--on_wire_ == 0) idle_since_ = sg4::Engine::get_clock();
        cluster_.TransferEnded(to);
        ch.on_wire = false;
        continue;
      }
      cluster_.Abort(Status::Error("node " + std::to_string(self_) + ": a transfer to node " +
                                   std::to_string(to) + " failed: " + e.what()),
                     std::nullopt);
      return;
    }
    if (--on_wire_ == 0) idle_since_ = sg4::Engine::get_clock();
    cluster_.TransferEnded(to);
    ch.on_wire = false;
    if (ch.pending != nullptr) MakeReady(to);
  }
}

void Nic::Put(NodeId to, Parcel* p, uint64_t* free) {
  ++transfers_;
  // The bytes the bucket lets through cross without waiting for the link.
  const uint64_t passed = std::min<uint64_t>(*free, p->bytes);
  *free -= passed;
  try {
    // A mailbox comm, not Comm::sendto: 3.32 keeps one-sided comms in one
    // engine-wide list and scans it when each finishes (measured: 33% of the
    // time at 1024 nodes). The receiving node's wire actor takes it.
    cluster_.wire(to)->put(p, p->bytes - passed);
  } catch (const simgrid::Exception&) {
    cluster_.parcels().Give(p);
    throw;
  }
}

void Nic::Transmit(NodeId to, Parcel* p, uint64_t free) {
  const Channel& ch = Route(to);
  if (p->frames.size() < 2 || p->bytes <= ch.chunk_bytes) {
    Put(to, p, &free);
    return;
  }
  std::vector<std::vector<uint8_t>> frames = std::move(p->frames);
  p->frames.clear();
  p->bytes = 0;
  size_t i = 0;
  Parcel* chunk = p;  // the parcel itself carries the first chunk
  while (i < frames.size()) {
    if (chunk == nullptr) {
      chunk = cluster_.parcels().Take();
      chunk->from = self_;
    }
    do {
      chunk->bytes += frames[i].size();
      chunk->frames.push_back(std::move(frames[i]));
      ++i;
    } while (i < frames.size() && chunk->bytes + frames[i].size() <= ch.chunk_bytes);
    Put(to, chunk, &free);
    chunk = nullptr;
  }
}

uint64_t Nic::WaitingBytes(NodeId to, uint64_t bytes) {
  const double burst = cluster_.compute_model().costs().queued_byte_burst;
  if (tokens_ < 0) tokens_ = burst;  // a link starts idle
  if (on_wire_ == 0) {
    // No idle time adds nothing (not 0 x an infinite bandwidth); any idle
    // time fills the bucket of an infinitely fast link.
    const double idle = sg4::Engine::get_clock() - idle_since_;
    if (idle > 0) tokens_ = std::min(burst, tokens_ + idle * Route(to).bandwidth);
  }
  const double free = std::min(tokens_, static_cast<double>(bytes));
  tokens_ -= free;
  return bytes - static_cast<uint64_t>(free);
}

NodeId Nic::PickReady() {
  // The first destination (in ready order) that no other transfer is entering,
  // so one receiver shared by several senders does not hold this NIC back
  // while its link could serve another destination; else the oldest.
  const size_t look = std::min(ready_.size(), kPickWindow);
  size_t pick = 0;
  for (size_t i = 0; i < look; ++i) {
    if (cluster_.TransfersInto(ready_[i]) == 0) {
      pick = i;
      break;
    }
  }
  const NodeId to = ready_[pick];
  ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(pick));
  return to;
}

Nic::Channel& Nic::Route(NodeId to) {
  Channel& ch = channels_[to];
  if (!ch.route_known) {
    const SimCluster::Route r = cluster_.RouteBetween(self_, to);
    ch.latency = r.latency;
    ch.bandwidth = r.bandwidth;
    // A route without links (bandwidth infinite) never needs chunks.
    const double chunk = r.bandwidth * kDeliveryQuantum;
    ch.chunk_bytes = chunk < 1e18 ? std::max<uint64_t>(1, static_cast<uint64_t>(chunk))
                                  : std::numeric_limits<uint64_t>::max();
    ch.route_known = true;
  }
  return ch;
}

double Nic::LatencyTo(NodeId to) { return Route(to).latency; }

}  // namespace augur

// Nic: one node's network interface: merges the node's frames per
// destination into parcels and puts one parcel at a time on the wire.
//
// Why (measured with perf, see README "Performance"): with one SimGrid comm
// per frame, the classic policy keeps thousands of comms in flight at 64 nodes;
// each starts and ends an LMM flow and every such event re-solves the whole
// connected set of flows (all of them in an all-to-all), so the cost per
// message grew with the number in flight. Here at most one flow per node is
// in the LMM at a time, and frames that wait behind it leave together.
//
// Model: Queue() (any actor of the node, via Runtime::Send) appends the frame
// to the destination's pending parcel; a destination with a pending parcel and
// nothing on the wire is in a FIFO (round robin across destinations). Each of
// the node's `lanes` NIC actors (--nic-lanes; 1 = a strictly serial NIC) takes
// the next destination and puts its whole parcel into that node's wire
// mailbox, waiting for each comm: a comm carries exactly the sum of its
// frames' encoded sizes (bandwidth and sharing with other nodes' transfers
// on shared links come from SimGrid). A parcel goes as one comm when it
// takes at most kDeliveryQuantum on the route's bottleneck link, else in
// consecutive chunks of whole frames that each take about that long, so a
// frame reaches the receiver when its own bytes have crossed, not when the
// whole parcel has: as on a TCP stream, where the receiver reads a frame
// as soon as its last segment arrived. (Measured with bench-fidelity's
// shaped 100 Mbit/s links, 2 nodes: one comm per parcel predicted zipf
// 0.339 s per epoch and kge 3.16 s against 0.299 s and 2.56 s measured;
// chunked, 0.296 s and 2.56 s. At 10 Gbit/s a chunk is 12.5 KB, so small
// frames still share a comm and the LMM sees few.) The receiving node's
// wire actor (its mailbox's permanent receiver) hands each comm's frames
// to its Inbox due after the route's latency (LatencyTo:
// the platform's link latencies, applied here instead of inside SimGrid, so
// latency overlaps across destinations while transmission is serialised like
// a real NIC's). A lane prefers the oldest ready destination that no other
// node is currently transferring into (PickReady), so a receiver shared by
// several senders does not hold the NIC back while it could serve another.
// With several lanes, a destination whose transfer is held back by a busy
// receiver does not block the node's transfers to others (as with one TCP
// connection per peer). Per-pair FIFO: at most one parcel per pair is on the
// wire, and a pair's parcels all have the same latency. A self-send skips the
// network (the Inbox gets it at once).
// A shaped link's bucket: the node's link takes queued_byte_burst bytes at
// once (a token bucket, refilled at the route's bandwidth while none of the
// node's transfers is on the wire, as tc tbf's). The bytes within the tokens
// left cross without waiting for the link, as tbf passes a burst at the
// speed of the path beneath it (the comms carry only the bytes beyond
// them; 0, the default, keeps none: every byte takes its time on the link).
// A parcel's bytes beyond the tokens wait for the link, and the lane charges them
// seconds_per_queued_byte of CPU on this node's host while it transmits them
// (an asynchronous execution, so the CPU competes with the node's workers
// and protocol handling during the transfer instead of delaying its start).
// On a shaped link that CPU is the kernel waking the sender chunk by chunk
// as tokens refill; a burst within the bucket costs none of it.
// Threading: SimGrid actors of one simulation only (cooperative, one at a time).
#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "core/base/types.h"

namespace augur {

class SimCluster;
struct Parcel;

class Nic {
 public:
  Nic(SimCluster& cluster, NodeId self, uint32_t nodes);
  Nic(const Nic&) = delete;
  Nic& operator=(const Nic&) = delete;

  // Queues one encoded frame for `to`. Never blocks.
  void Queue(NodeId to, std::vector<uint8_t> frame);
  // The body of one NIC lane actor (a daemon on the node's host); returns only when killed.
  void Run();

  // Route latency from this node to `to` (seconds; looked up once per pair).
  double LatencyTo(NodeId to);
  // The longest a comm carrying several frames takes on its route's bottleneck.
  static constexpr double kDeliveryQuantum = 10e-6;
  uint64_t transfers() const { return transfers_; }

 private:
  struct Channel {
    Parcel* pending = nullptr;  // frames queued, not yet on the wire
    bool on_wire = false;       // a parcel to this destination is being transferred
    bool route_known = false;   // latency and chunk_bytes looked up (Route)
    double latency = 0;         // route latency to this destination
    uint64_t chunk_bytes = 0;   // kDeliveryQuantum of the route's bottleneck bandwidth
    double bandwidth = 0;       // the route's bottleneck bandwidth (bytes per second)
  };

  SimCluster& cluster_;
  const NodeId self_;
  std::vector<Channel> channels_;  // by destination
  std::deque<NodeId> ready_;       // pending and not on the wire, in the order they became so
  simgrid::s4u::SemaphorePtr wake_;
  uint32_t parked_ = 0;                      // lanes waiting for work
  static constexpr size_t kPickWindow = 64;  // ready destinations PickReady looks at
  void MakeReady(NodeId to);
  // Puts p's frames on the wire to `to`, in chunks (above). Throws what a
  // put throws, after handing the parcel in flight back to the pool.
  // The first `free` bytes (the bucket's tokens) take no time on the link.
  void Transmit(NodeId to, Parcel* p, uint64_t free);
  // Puts p as one comm carrying its bytes beyond *free, which it uses up.
  void Put(NodeId to, Parcel* p, uint64_t* free);
  // The channel to `to`, its route looked up (once per pair).
  Channel& Route(NodeId to);
  NodeId PickReady();
  // The bytes of a parcel of `bytes` to `to` that wait for the link (the
  // token bucket above); call as its transfer starts.
  uint64_t WaitingBytes(NodeId to, uint64_t bytes);
  uint64_t transfers_ = 0;
  double tokens_ = -1;     // the bucket's bytes; -1: full, not yet used
  double idle_since_ = 0;  // when the last transfer ended (if none is on the wire)
  uint32_t on_wire_ = 0;   // this node's transfers on the wire
};

}  // namespace augur

#include "simulator/node_actors.h"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <string>

#include "simulator/inbox.h"
#include "simulator/nic.h"
#include "simulator/parcel.h"
#include "simulator/sim_cluster.h"

namespace augur {

namespace sg4 = simgrid::s4u;

namespace {

// Executes `flops` of node n's protocol work on its host, and counts them.
void Charge(SimCluster* cluster, NodeId n, ComputeModel& compute, double flops) {
  if (flops <= 0) return;
  cluster->Charged(n, flops);
  compute.BeforeYield();
  sg4::this_actor::execute(flops);
  compute.AfterYield();
}

// Handles one parcel that `woke` the protocol actor or found it awake.
// False when the run was aborted.
bool HandleParcel(SimCluster* cluster, NodeId n, Node& node, ComputeModel& compute, Parcel* p,
                  bool woke) {
  const bool measured = compute.mode() == ComputeMode::kMeasured;
  if (p->timer) {
    cluster->TimerFired();
    // A timer is a wake-up of the protocol thread: the fixed per-message cost.
    if (!measured)
      Charge(cluster, n, compute, woke ? compute.MessageFlops(0) : compute.AwakeMessageFlops(0));
    node.OnTimer(p->timer_id);
    cluster->parcels().Give(p);
    return true;
  }
  if (!measured) {
    // At most one wake-up for the parcel: its first frame at a message's
    // full cost (or an awake one's), the frames that came with it at
    // their handling's.
    double flops = 0;
    for (size_t i = 0; i < p->frames.size(); ++i) {
      const uint64_t bytes = p->frames[i].size();
      flops += i > 0  ? compute.CoalescedMessageFlops(bytes)
               : woke ? compute.MessageFlops(bytes)
                      : compute.AwakeMessageFlops(bytes);
    }
    Charge(cluster, n, compute, flops);
  }
  // Frames that arrived together are handled together: their answers to
  // one peer leave as one frame (Node::OnMessages).
  const uint64_t wakeups = cluster->WorkerWakeups(n);
  if (Status s = node.OnMessages(p->from, p->frames); !s.ok()) {
    cluster->Abort(s.WithContext("node " + std::to_string(n) + " handling a frame from node " +
                                 std::to_string(p->from)),
                   std::nullopt);
    return false;
  }
  // A parcel that found the protocol actor awake but woke a parked worker
  // (an answer it waited for) pays that wake-up after all.
  if (!measured && !woke && cluster->WorkerWakeups(n) != wakeups)
    Charge(cluster, n, compute, compute.MessageFlops(0) - compute.AwakeMessageFlops(0));
  if (measured) Charge(cluster, n, compute, compute.MessageFlops(p->bytes));
  cluster->parcels().Give(p);
  return true;
}

}  // namespace

void ProtocolActor(SimCluster* cluster, NodeId n) {
  sg4::Actor::self()->daemonize();
  Node& node = cluster->node(n);
  Inbox& inbox = cluster->inbox(n);
  ComputeModel& compute = cluster->compute_model();
  for (;;) {
    Parcel* p = inbox.Take(compute);
    // A parcel that was already due when the previous one's handling ended
    // costs no wake-up of a sleeping thread: the real I/O thread finds it
    // ready as it finishes the previous one.
    const bool woke = inbox.last_take_waited();
    // One round of the I/O thread: the parcels due as it begins (epoll_wait
    // returns every ready socket at once), handled with the node's sends
    // held, so what the round produces for one peer leaves as one frame
    // after it, as the TCP backend's poller does (SocketPoller::OnReady).
    // Parcels that come due during the round wait for the next one.
    const double round_start = sg4::Engine::get_clock();
    const bool round = inbox.HasDueBy(round_start);
    if (round) node.HoldSends();
    bool ok = HandleParcel(cluster, n, node, compute, p, woke);
    while (ok && round && inbox.HasDueBy(round_start))
      ok = HandleParcel(cluster, n, node, compute, inbox.Take(compute), /*woke=*/false);
    if (!ok) return;  // aborted: nothing more is sent
    if (round) node.ReleaseSends();
  }
}

void NicActor(SimCluster* cluster, NodeId node) { cluster->nic(node).Run(); }

void WireActor(SimCluster* cluster, NodeId n) {
  sg4::Actor::self()->daemonize();
  sg4::Mailbox* wire = cluster->wire(n);
  Inbox& inbox = cluster->inbox(n);
  for (;;) {
    Parcel* p = nullptr;
    try {
      p = wire->get<Parcel>();
    } catch (const simgrid::NetworkFailureException&) {
      continue;  // the sender's host was turned off (--fail-node): the parcel is lost
    }
    inbox.Push(
        p, sg4::Engine::get_clock() + cluster->nic(p->from).LatencyTo(n) + cluster->WakeupDelay(n));
  }
}

void WorkerActor(SimCluster* cluster, Worker* worker, const std::function<void(Worker&)>* body) {
  cluster->compute_model().AfterYield();
  (*body)(*worker);
  cluster->WorkerFinished();
}

}  // namespace augur

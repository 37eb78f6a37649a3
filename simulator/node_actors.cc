#include "simulator/node_actors.h"

#include <map>
#include <memory>
#include <simgrid/s4u.hpp>
#include <string>
#include <unordered_map>
#include <utility>

#include "simulator/sim_cluster.h"

namespace augur {

namespace sg4 = simgrid::s4u;

void DeleteEnvelope(void* envelope) { delete static_cast<Envelope*>(envelope); }

void ProtocolActor(SimCluster* cluster, NodeId n) {
  sg4::Actor::self()->daemonize();
  Node& node = cluster->node(n);
  sg4::Mailbox* mailbox = cluster->mailbox(n);
  ComputeModel& compute = cluster->compute_model();
  std::unordered_map<NodeId, uint64_t> next_seq;  // per sender: the next in send order
  std::map<std::pair<NodeId, uint64_t>, std::unique_ptr<Envelope>> early;  // arrived ahead
  std::unique_ptr<Envelope> e;
  for (;;) {
    if (e == nullptr) {
      compute.BeforeYield();
      e.reset(mailbox->get<Envelope>());
      compute.AfterYield();
    }
    if (e->timer) {
      cluster->TimerFired();
      node.OnTimer(e->timer_id);
      e.reset();
      continue;
    }
    uint64_t& expected = next_seq[e->from];
    if (e->seq != expected) {
      const std::pair<NodeId, uint64_t> id{e->from, e->seq};
      early.emplace(id, std::move(e));
      continue;
    }
    ++expected;
    Status s = node.OnMessage(e->from, e->frame);
    if (!s.ok()) {
      cluster->Abort(s.WithContext("node " + std::to_string(n) + " handling a frame from node " +
                                   std::to_string(e->from)),
                     std::nullopt);
      return;
    }
    const double flops = compute.MessageFlops(e->frame.size());
    if (flops > 0) {
      compute.BeforeYield();
      sg4::this_actor::execute(flops);
      compute.AfterYield();
    }
    // The sender's next frame may already be waiting.
    auto it = early.find({e->from, expected});
    e.reset();
    if (it != early.end()) {
      e = std::move(it->second);
      early.erase(it);
    }
  }
}

void WorkerActor(SimCluster* cluster, Worker* worker, const std::function<void(Worker&)>* body) {
  cluster->compute_model().AfterYield();
  (*body)(*worker);
  cluster->WorkerFinished();
}

void TimerActor(SimCluster* cluster, NodeId node, double delay_seconds, uint64_t timer_id) {
  sg4::Actor::self()->daemonize();
  if (delay_seconds > 0) sg4::this_actor::sleep_for(delay_seconds);
  auto* e = new Envelope{node, true, timer_id, {}};
  cluster->mailbox(node)->put_init(e, 0)->detach(DeleteEnvelope);
}

}  // namespace augur

// Node: the barrier (REFERENCE §3). A node's workers arrive at its current
// generation; the last of them moves the node on and tells the coordinator
// (node 0) or, at node 0, counts the node itself. Once every node has
// arrived, node 0 releases the generation everywhere and the parked workers
// wake.
#include <string>

#include "core/base/check.h"
#include "core/protocol/node.h"

namespace augur {

void Node::ArriveAtBarrier(WorkerId /*w*/, uint64_t* generation_out) {
  Effects fx;
  {
    EngineLock g(*this, fx);
    const uint64_t gen = barrier_generation_;
    *generation_out = gen;
    if (++barrier_arrived_ == workers_.size()) {
      barrier_arrived_ = 0;
      ++barrier_generation_;
      if (self_ == 0) {
        if (++coordinator_arrivals_[gen] == num_nodes_) ReleaseBarrier(gen, &fx);
      } else {
        fx.out.To(0, MessageType::kBarrierArrive, self_, self_, 0, static_cast<uint32_t>(gen));
      }
    }
  }
  Flush(fx);
}

void Node::ReleaseBarrier(uint64_t generation, Effects* fx) {
  coordinator_arrivals_.erase(generation);
  for (NodeId n = 0; n < num_nodes_; ++n) {
    if (n != self_)
      fx->out.To(n, MessageType::kBarrierRelease, self_, self_, 0,
                 static_cast<uint32_t>(generation));
  }
  barrier_released_ = generation + 1;
  for (WorkerId w = 0; w < workers_.size(); ++w)
    if (waiting_[w]) fx->wake.parkers.push_back(workers_[w]->parker_.get());
}

bool Node::BarrierReleased(uint64_t generation) {
  LockGuard<Mutex> g(*mu_);
  return barrier_released_ > generation;
}

Status Node::HandleBarrier(const Message& m) {
  if (!m.keys.empty() || !m.slots.empty() || !m.values.empty())
    return Status::Error(From(m) + ": malformed (a barrier message carries its generation only)");
  Effects fx;
  Status status;
  {
    EngineLock g(*this, fx);
    if (m.type == MessageType::kBarrierArrive) {
      // Node 0 releases generation g before any node can arrive at g + 1.
      if (self_ != 0) {
        status = Status::Error(From(m) + ": only node 0 coordinates barriers");
      } else if (m.aux != static_cast<uint32_t>(barrier_released_)) {
        status = Status::Error(From(m) + ": arrives at generation " + std::to_string(m.aux) +
                               ", the open one is " + std::to_string(barrier_released_));
      } else if (++coordinator_arrivals_[barrier_released_] == num_nodes_) {
        ReleaseBarrier(barrier_released_, &fx);
      }
    } else if (m.src != 0) {
      status = Status::Error(From(m) + ": only node 0 releases barriers");
    } else if (uint64_t{m.aux} < barrier_released_ || uint64_t{m.aux} >= barrier_generation_) {
      // A node's workers all arrive at a generation before node 0 can release it.
      status = Status::Error(From(m) + ": releases generation " + std::to_string(m.aux) +
                             " that is not awaited here");
    } else {
      barrier_released_ = uint64_t{m.aux} + 1;
      for (WorkerId w = 0; w < workers_.size(); ++w)
        if (waiting_[w]) fx.wake.parkers.push_back(workers_[w]->parker_.get());
    }
  }
  Flush(fx);
  return status;
}

}  // namespace augur

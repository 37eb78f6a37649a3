#include "core/protocol/barrier.h"

#include <string>

namespace augur {

uint64_t Barrier::Arrive() {
  Effects fx = Effects::ForWorker();
  uint64_t gen = 0;
  {
    EngineLock g(cx_, fx);
    gen = generation_;
    if (++arrived_ == cx_.workers()) {
      arrived_ = 0;
      ++generation_;
      if (cx_.self == 0) {
        if (++coordinator_arrivals_[gen] == cx_.num_nodes) Release(gen, &fx);
      } else {
        fx.out.To(0, MessageType::kBarrierArrive, cx_.self, cx_.self, 0,
                  static_cast<uint32_t>(gen));
      }
    }
  }
  cx_.Flush(fx);
  return gen;
}

void Barrier::Release(uint64_t generation, Effects* fx) {
  coordinator_arrivals_.erase(generation);
  for (NodeId n = 0; n < cx_.num_nodes; ++n) {
    if (n != cx_.self)
      fx->out.To(n, MessageType::kBarrierRelease, cx_.self, cx_.self, 0,
                 static_cast<uint32_t>(generation));
  }
  released_ = generation + 1;
  cx_.ops.WakeWaiting(fx);
}

bool Barrier::Released(uint64_t generation) {
  LockGuard<Mutex> g(cx_.mu());
  return released_ > generation;
}

Status Barrier::Handle(const Message& m) {
  const auto from = [&m] { return EngineContext::From(m); };
  if (!m.keys.empty() || !m.slots.empty() || !m.values.empty())
    return Status::Error(from() + ": malformed (a barrier message carries its generation only)");
  Effects fx;
  Status status;
  {
    EngineLock g(cx_, fx);
    if (m.type == MessageType::kBarrierArrive) {
      // Node 0 releases generation g before any node can arrive at g + 1.
      if (cx_.self != 0) {
        status = Status::Error(from() + ": only node 0 coordinates barriers");
      } else if (m.aux != static_cast<uint32_t>(released_)) {
        status = Status::Error(from() + ": arrives at generation " + std::to_string(m.aux) +
                               ", the open one is " + std::to_string(released_));
      } else if (++coordinator_arrivals_[released_] == cx_.num_nodes) {
        Release(released_, &fx);
      }
    } else if (m.src != 0) {
      status = Status::Error(from() + ": only node 0 releases barriers");
    } else if (uint64_t{m.aux} < released_ || uint64_t{m.aux} >= generation_) {
      // A node's workers all arrive at a generation before node 0 can release it.
      status = Status::Error(from() + ": releases generation " + std::to_string(m.aux) +
                             " that is not awaited here");
    } else {
      released_ = uint64_t{m.aux} + 1;
      cx_.ops.WakeWaiting(&fx);
    }
  }
  cx_.Flush(fx);
  return status;
}

}  // namespace augur

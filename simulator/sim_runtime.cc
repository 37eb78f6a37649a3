#include "simulator/sim_runtime.h"

#include <simgrid/s4u.hpp>

#include "core/base/check.h"
#include "core/runtime/checked_mutex.h"
#include "simulator/compute_model.h"
#include "simulator/sim_cluster.h"

namespace augur {

namespace sg4 = simgrid::s4u;

namespace {

// Permit semantics over a counting semaphore: at most one release per park.
// Counts the wake-ups of a parked worker on its node (SimCluster::WorkerWoken).
class SimParker final : public Parker {
 public:
  SimParker(ComputeModel& compute, SimCluster& cluster, NodeId node)
      : compute_(compute), cluster_(cluster), node_(node), semaphore_(sg4::Semaphore::create(0)) {}
  void Park() override {
    if (permit_) {
      permit_ = false;
      return;
    }
    parked_ = true;
    compute_.BeforeYield();
    semaphore_->acquire();
    compute_.AfterYield();
  }
  void Unpark() override {
    if (parked_) {
      parked_ = false;
      cluster_.WorkerWoken(node_);
      semaphore_->release();
    } else {
      permit_ = true;
    }
  }

 private:
  ComputeModel& compute_;
  SimCluster& cluster_;
  const NodeId node_;
  sg4::SemaphorePtr semaphore_;
  bool parked_ = false;
  bool permit_ = false;
};

}  // namespace

SimRuntime::SimRuntime(SimCluster& cluster, ComputeModel& compute, NodeId self, uint32_t nodes)
    : cluster_(cluster), compute_(compute), self_(self), nodes_(nodes) {}

void SimRuntime::Send(NodeId to, std::vector<uint8_t> frame) {
  AUGUR_CHECK(to < nodes_, "send to node %u of %u", to, nodes_);
  compute_.BeforeYield();
  cluster_.Send(self_, to, std::move(frame));
  compute_.AfterYield();
}

double SimRuntime::Now() { return sg4::Engine::get_clock(); }

void SimRuntime::Fail(const Status& error) { cluster_.Abort(error, std::nullopt); }

double SimRuntime::CpuSeconds() { return cluster_.ChargedCpuSeconds(self_); }

void SimRuntime::Compute(double seconds) {
  const double flops = compute_.WorkerFlops(seconds);
  if (flops <= 0) return;
  cluster_.Charged(self_, flops);
  compute_.BeforeYield();
  sg4::this_actor::execute(flops);
  compute_.AfterYield();
}

void SimRuntime::SetTimer(double delay_seconds, uint64_t timer_id) {
  compute_.BeforeYield();
  cluster_.StartTimer(self_, delay_seconds, timer_id);
  compute_.AfterYield();
}

std::unique_ptr<Mutex> SimRuntime::NewMutex() { return std::make_unique<CheckedMutex>(); }

std::unique_ptr<Parker> SimRuntime::NewParker() {
  return std::make_unique<SimParker>(compute_, cluster_, self_);
}

}  // namespace augur

#include "backends/loopback/loopback_cluster.h"

#include <memory>

#include "core/base/check.h"
#include "core/codec/codec.h"
#include "core/runtime/checked_mutex.h"

namespace augur {

namespace {

class LoopbackParker final : public Parker {
 public:
  explicit LoopbackParker(VirtualScheduler& s) : scheduler_(s) {}
  void Park() override {
    if (permit_) {
      permit_ = false;
      return;
    }
    parked_ = scheduler_.Current();
    scheduler_.Park();
  }
  void Unpark() override {
    if (parked_ >= 0) {
      const int id = parked_;
      parked_ = -1;
      scheduler_.Wake(id);
    } else {
      permit_ = true;
    }
  }

 private:
  VirtualScheduler& scheduler_;
  int parked_ = -1;
  bool permit_ = false;
};

}  // namespace

class LoopbackRuntime final : public Runtime {
 public:
  LoopbackRuntime(LoopbackCluster& cluster, NodeId self, uint32_t nodes)
      : cluster_(cluster), self_(self), nodes_(nodes) {}
  NodeId self() const override { return self_; }
  uint32_t num_nodes() const override { return nodes_; }
  void Send(NodeId to, std::vector<uint8_t> frame) override {
    AUGUR_CHECK(to < nodes_, "send to node %u of %u", to, nodes_);
    cluster_.Deliver(self_, to, std::move(frame));
  }
  size_t MaxFrameBytes() const override { return cluster_.max_frame_bytes_; }
  double Now() override { return cluster_.scheduler_.Now(); }
  const char* ClockName() const override { return "virtual"; }
  void Fail(const Status& error) override { cluster_.Fail(error); }
  void Compute(double seconds) override { cluster_.scheduler_.Sleep(seconds); }
  void SetTimer(double delay_seconds, uint64_t timer_id) override {
    Node* node = &cluster_.node(self_);
    cluster_.scheduler_.At(Now() + delay_seconds, [node, timer_id] { node->OnTimer(timer_id); });
  }
  std::unique_ptr<Mutex> NewMutex() override { return std::make_unique<CheckedMutex>(); }
  std::unique_ptr<Parker> NewParker() override {
    auto p = std::make_unique<LoopbackParker>(cluster_.scheduler_);
    cluster_.parkers_.push_back(p.get());
    return p;
  }

 private:
  LoopbackCluster& cluster_;
  NodeId self_;
  uint32_t nodes_;
};

LoopbackCluster::LoopbackCluster(LoopbackOptions options)
    : network_(options.nodes, options.network),
      max_frame_bytes_(options.max_frame_bytes != 0 ? options.max_frame_bytes
                                                    : kHeaderBytes + kMaxBodyBytes) {
  AUGUR_CHECK(options.nodes > 0, "a cluster needs at least one node");
  for (NodeId n = 0; n < options.nodes; ++n) {
    runtimes_.push_back(std::make_unique<LoopbackRuntime>(*this, n, options.nodes));
    nodes_.push_back(std::make_unique<Node>(options.node, *runtimes_.back()));
  }
}

LoopbackCluster::~LoopbackCluster() = default;

void LoopbackCluster::Deliver(NodeId from, NodeId to, std::vector<uint8_t> frame) {
  // A TCP receiver refuses such a frame and the cluster stops; here the
  // workers waiting for it could never be unwound, so stop with the evidence.
  if (frame.size() > max_frame_bytes_) {
    Result<FrameHeader> h = DecodeHeader(frame);
    AUGUR_CHECK(false, "node %u sent node %u a %s frame of %zu bytes, above the frame limit %zu",
                from, to, h.ok() ? MessageTypeName(h->type) : "malformed", frame.size(),
                max_frame_bytes_);
  }
  const double at = network_.Deliver(from, to, frame.size(), scheduler_.Now());
  auto shared = std::make_shared<std::vector<uint8_t>>(std::move(frame));
  scheduler_.At(at, [this, from, to, shared] {
    Status s = nodes_[to]->OnMessage(from, *shared);
    if (!s.ok() && first_error_.ok()) first_error_ = s.WithContext("node " + std::to_string(to));
  });
}

void LoopbackCluster::Fail(const Status& error) {
  if (first_error_.ok()) first_error_ = error;
  for (Parker* p : parkers_) p->Cancel();
}

Status LoopbackCluster::Run(const std::function<void(Worker&)>& body) {
  for (auto& node : nodes_) {
    for (WorkerId w = 0; w < node->num_workers(); ++w) {
      Worker* worker = &node->worker(w);
      scheduler_.Spawn("node " + std::to_string(node->self()) + " worker " + std::to_string(w),
                       [worker, &body] { body(*worker); });
    }
  }
  Status s = scheduler_.Run();
  if (!s.ok()) return s;
  return first_error_;
}

}  // namespace augur

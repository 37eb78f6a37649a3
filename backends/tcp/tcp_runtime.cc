#include "backends/tcp/tcp_runtime.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "backends/process_cpu.h"
#include "backends/tcp/tcp_transport.h"

namespace augur::tcp {

namespace {

class StdMutex final : public Mutex {
 public:
  void lock() override { mu_.lock(); }
  void unlock() override { mu_.unlock(); }

 private:
  std::mutex mu_;
};

// Waits through TcpTransport::WaitParked: the parked worker reads its
// replies off the sockets itself, so the I/O thread's hand-off (a wake-up
// of the worker by another thread) is not on a reply's path. It sleeps at
// once, without spinning first: a worker that has just written its request
// woke the peer's I/O thread, and the scheduler tends to run that thread on
// the worker's core, so a spinning worker delayed the reply it waits for
// (`augur bench-net` on the busy 2-core machine: pull/raw ratio 0.04-0.05
// with a 50 us spin, 0.25-0.28 without).
class TcpParker final : public Parker {
 public:
  explicit TcpParker(TcpTransport& transport) : transport_(transport) {}
  void Park() override {
    while (!cancelled() && !signal_.Take()) transport_.WaitParked(signal_);
  }
  void Unpark() override { signal_.Set(); }

 private:
  TcpTransport& transport_;
  WakeSignal signal_;
};

}  // namespace

class TcpRuntime::Delivery final : public TcpTransport::Receiver {
 public:
  explicit Delivery(TcpRuntime& runtime) : runtime_(runtime) {}
  Status OnData(NodeId from, std::span<const uint8_t> frame) override {
    return runtime_.OnData(from, frame);
  }
  void BeginRound() override { runtime_.HoldSends(true); }
  void EndRound() override { runtime_.HoldSends(false); }

 private:
  TcpRuntime& runtime_;
};

TcpRuntime::TcpRuntime(TcpOptions options)
    : start_(std::chrono::steady_clock::now()),
      delivery_(std::make_unique<Delivery>(*this)),
      transport_(std::make_unique<TcpTransport>(std::move(options), *delivery_)) {}

TcpRuntime::~TcpRuntime() = default;

NodeId TcpRuntime::self() const { return transport_->options().rank; }
uint32_t TcpRuntime::num_nodes() const { return transport_->options().nodes; }
size_t TcpRuntime::MaxFrameBytes() const { return transport_->options().max_frame_bytes; }

void TcpRuntime::SetInterruptCheck(std::function<bool()> interrupted,
                                   std::chrono::milliseconds period) {
  transport_->SetWaitCheck(
      [this, interrupted = std::move(interrupted)] {
        if (!interrupted()) return false;
        Abandon();  // every worker's wait ends (Start() fails by itself)
        return true;
      },
      period);
}

Status TcpRuntime::Start(Node* node) {
  node_ = node;
  Status s = transport_->Start();
  if (s.ok() && node->stall_timeout_seconds() > 0)
    ArmStallTick(std::clamp(node->stall_timeout_seconds() / 4, 0.01, 1.0));
  return s;
}

void TcpRuntime::ArmStallTick(double period) {
  asio::io_context& io = transport_->io();
  asio::post(io, [this, &io, period] {
    auto timer = std::make_shared<asio::steady_timer>(
        io, std::chrono::nanoseconds(static_cast<int64_t>(period * 1e9)));
    timer->async_wait([this, timer, period](const asio::error_code& ec) {
      if (ec) return;
      {
        std::lock_guard<std::mutex> g(transport_->handler_mutex());
        if (finished_) return;
        node_->CheckStalls();
      }
      ArmStallTick(period);
    });
  });
}

void TcpRuntime::Fail(const Status& error) { transport_->Fail(error); }

Status TcpRuntime::Finish(std::optional<double> limit_seconds) {
  Status s = transport_->Finish(limit_seconds);
  // A sync timer may still be pending on the I/O thread: from here on it
  // finds the node gone (the Node may be destroyed before this runtime).
  std::lock_guard<std::mutex> g(transport_->handler_mutex());
  finished_ = true;
  return s;
}

void TcpRuntime::Send(NodeId to, std::vector<uint8_t> frame) {
  transport_->Send(to, std::move(frame));
}

double TcpRuntime::Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double TcpRuntime::CpuSeconds() { return ProcessCpuSeconds(); }

void TcpRuntime::Compute(double /*seconds*/) {}

void TcpRuntime::SetTimer(double delay_seconds, uint64_t timer_id) {
  asio::io_context& io = transport_->io();
  asio::post(io, [this, &io, delay_seconds, timer_id] {
    auto timer = std::make_shared<asio::steady_timer>(
        io, std::chrono::nanoseconds(static_cast<int64_t>(delay_seconds * 1e9)));
    timer->async_wait([this, timer, timer_id](const asio::error_code& ec) {
      if (ec) return;
      std::lock_guard<std::mutex> g(transport_->handler_mutex());
      if (!finished_) node_->OnTimer(timer_id);
    });
  });
}

std::unique_ptr<Mutex> TcpRuntime::NewMutex() { return std::make_unique<StdMutex>(); }
std::unique_ptr<Parker> TcpRuntime::NewParker() {
  auto p = std::make_unique<TcpParker>(*transport_);
  std::lock_guard<std::mutex> g(parkers_mu_);
  parkers_.push_back(p.get());
  return p;
}

SpinYield TcpRuntime::StoreSpinYield() const {
  // Workers and the I/O thread share the store's stripe locks, often with
  // more threads than cores: a holder may be descheduled.
  return [] { std::this_thread::yield(); };
}

void TcpRuntime::Abandon() {
  {
    std::lock_guard<std::mutex> g(transport_->handler_mutex());
    finished_ = true;  // a reply or timer racing with this finds the node gone
  }
  std::lock_guard<std::mutex> g(parkers_mu_);
  for (Parker* p : parkers_) p->Cancel();
}

void TcpRuntime::HoldSends(bool hold) {
  // Under the handler mutex, as every delivery: the node is not gone while
  // finished_ is false. The release sends what the round's frames produced,
  // one frame per peer, as a handler's own sends do under this mutex. Rounds
  // nest (the delayed frames due while a socket's are read); the outermost
  // one holds.
  std::lock_guard<std::mutex> g(transport_->handler_mutex());
  if (hold) {
    if (open_rounds_++ > 0 || node_ == nullptr || finished_) return;
    node_->HoldSends();
    node_holding_ = true;
    return;
  }
  if (open_rounds_ == 0 || --open_rounds_ > 0 || !node_holding_) return;
  node_holding_ = false;
  if (!finished_) node_->ReleaseSends();  // else the node may be gone: nothing is sent
}

Status TcpRuntime::OnData(NodeId from, std::span<const uint8_t> frame) {
  if (finished_) return Status::Ok();  // under the handler mutex, as every delivery
  return node_->OnMessage(from, frame);
}

}  // namespace augur::tcp

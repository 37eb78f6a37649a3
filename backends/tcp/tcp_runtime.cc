#include "backends/tcp/tcp_runtime.h"

#include <condition_variable>
#include <mutex>

namespace augur::tcp {

namespace {

class StdMutex final : public Mutex {
 public:
  void lock() override { mu_.lock(); }
  void unlock() override { mu_.unlock(); }

 private:
  std::mutex mu_;
};

// Sleeps at once, without spinning first. A worker that has just written its
// request to the socket (TcpTransport::Send) woke the peer's I/O thread, and
// the scheduler tends to run that thread on the worker's core: a worker that
// spun there, even yielding, delayed the reply it waits for (`augur bench-net`
// on the busy 2-core machine: pull/raw ratio 0.04-0.05 with a 50 us spin,
// 0.25-0.28 without).
class ThreadParker final : public Parker {
 public:
  void Park() override {
    std::unique_lock<std::mutex> g(mu_);
    cv_.wait(g, [this] { return permit_; });
    permit_ = false;
  }
  void Unpark() override {
    {
      std::lock_guard<std::mutex> g(mu_);
      permit_ = true;
    }
    cv_.notify_one();
  }

 private:
  bool permit_ = false;  // guarded by mu_
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace

TcpRuntime::TcpRuntime(TcpOptions options)
    : start_(std::chrono::steady_clock::now()), transport_(std::move(options), *this) {}

TcpRuntime::~TcpRuntime() = default;

Status TcpRuntime::Start(Node* node) {
  node_ = node;
  return transport_.Start();
}

Status TcpRuntime::Finish() { return transport_.Finish(); }

void TcpRuntime::Send(NodeId to, std::vector<uint8_t> frame) {
  transport_.Send(to, std::move(frame));
}

double TcpRuntime::Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void TcpRuntime::Compute(double /*seconds*/) {}

void TcpRuntime::SetTimer(double delay_seconds, uint64_t timer_id) {
  asio::io_context& io = transport_.io();
  asio::post(io, [this, &io, delay_seconds, timer_id] {
    auto timer = std::make_shared<asio::steady_timer>(
        io, std::chrono::nanoseconds(static_cast<int64_t>(delay_seconds * 1e9)));
    timer->async_wait([this, timer, timer_id](const asio::error_code& ec) {
      if (!ec) node_->OnTimer(timer_id);
    });
  });
}

std::unique_ptr<Mutex> TcpRuntime::NewMutex() { return std::make_unique<StdMutex>(); }
std::unique_ptr<Parker> TcpRuntime::NewParker() { return std::make_unique<ThreadParker>(); }

Status TcpRuntime::OnData(NodeId from, std::span<const uint8_t> frame) {
  return node_->OnMessage(from, frame);
}

}  // namespace augur::tcp

#include "backends/tcp/tcp_runtime.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace augur::tcp {

namespace {

class StdMutex final : public Mutex {
 public:
  void lock() override { mu_.lock(); }
  void unlock() override { mu_.unlock(); }

 private:
  std::mutex mu_;
};

// Spins (yielding) briefly before sleeping: a remote reply usually arrives
// within tens of microseconds, and a futex sleep/wake pair costs about as
// much again on a busy 2-core machine.
class ThreadParker final : public Parker {
 public:
  void Park() override {
    const auto spin_until = std::chrono::steady_clock::now() + kSpin;
    while (std::chrono::steady_clock::now() < spin_until) {
      if (permit_.exchange(false, std::memory_order_acquire)) return;
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> g(mu_);
    cv_.wait(g, [this] { return permit_.exchange(false, std::memory_order_acquire); });
  }
  void Unpark() override {
    permit_.store(true, std::memory_order_release);
    { std::lock_guard<std::mutex> g(mu_); }  // a parker between check and wait sees the notify
    cv_.notify_one();
  }

 private:
  static constexpr std::chrono::microseconds kSpin{50};
  std::atomic<bool> permit_{false};
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

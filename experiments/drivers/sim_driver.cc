#include "experiments/drivers/sim_driver.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "backends/process_cpu.h"
#include "simulator/sim_cluster.h"

namespace augur {

namespace {

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

// VmHWM from /proc/self/status, in MiB; 0 if unavailable.
double PeakMemoryMiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  }
  return 0;
}

// A progress line on stderr once the run has taken a few wall seconds.
class ProgressLine {
 public:
  ProgressLine(const RunConfig& config, SimCluster& cluster, SteadyClock::time_point start)
      : config_(config), cluster_(cluster), start_(start), tty_(isatty(STDERR_FILENO) != 0) {}
  ~ProgressLine() {
    if (printed_ && tty_) std::fputc('\n', stderr);
  }
  void Update(double simulated_now) {
    const double wall = SecondsSince(start_);
    if (wall < kFirstAfter || wall - last_ < (tty_ ? kTtyEvery : kLogEvery)) return;
    last_ = wall;
    printed_ = true;
    const double per_epoch = config_.zipf.batches_per_epoch;
    const double total = per_epoch * config_.epochs;
    const double done = static_cast<double>(cluster_.node(0).worker(0).clock());
    const double fraction = total > 0 ? std::min(1.0, done / total) : 0;
    const uint32_t epoch =
        std::min<uint32_t>(config_.epochs, static_cast<uint32_t>(done / per_epoch) + 1);
    char eta[32] = "?";
    if (fraction > 0) std::snprintf(eta, sizeof(eta), "%.0f s", wall * (1 - fraction) / fraction);
    std::fprintf(stderr,
                 "%ssim: %.6f s simulated, epoch %u/%u, %.0f%% (node 0), %.0f s wall, ETA %s%s",
                 tty_ ? "\r" : "", simulated_now, epoch, config_.epochs, 100 * fraction, wall, eta,
                 tty_ ? "   " : "\n");
    std::fflush(stderr);
  }

 private:
  static constexpr double kFirstAfter = 3;  // wall seconds
  static constexpr double kTtyEvery = 0.5;
  static constexpr double kLogEvery = 10;
  const RunConfig& config_;
  SimCluster& cluster_;
  const SteadyClock::time_point start_;
  const bool tty_;
  double last_ = 0;
  bool printed_ = false;
};

}  // namespace

Result<SimOutcome> RunOnSim(const RunConfig& config, const SimOptions& sim, Job& job,
                            bool* bad_platform) {
  const auto wall_start = SteadyClock::now();
  SimClusterOptions options;
  options.nodes = config.nodes;
  options.node = job.MakeNodeOptions();
  options.sim = sim;
  Result<std::unique_ptr<SimCluster>> cluster = SimCluster::Create(std::move(options));
  if (!cluster.ok()) {
    // Create fails on the platform (or on a second engine, which augur never makes).
    if (bad_platform != nullptr) *bad_platform = true;
    return cluster.status();
  }
  SimCluster& c = **cluster;
  std::optional<ProgressLine> progress;
  if (sim.progress) {
    progress.emplace(config, c, wall_start);
    c.SetProgressHook([&progress](double now) { progress->Update(now); });
  }
  Status s = c.Run([&job](Worker& w) { job.RunWorker(w); });
  progress.reset();
  if (!s.ok()) return s;
  if (job.failed()) return job.failure();
  SimOutcome out;
  RunResult& r = out.result;
  r.backend = "sim";
  job.Report(&r);
  r.wall_seconds = SecondsSince(wall_start);
  const SimRunStats& st = c.stats();
  r.extra["simulated_messages"] = st.messages;
  r.extra["simulated_bytes"] = st.bytes;
  r.extra["simulated_comms"] = st.comms;
  r.extra["simulated_timers"] = st.timers;
  r.extra["simulated_end_seconds"] = st.simulated_seconds;
  r.extra["sim_messages_per_wall_second"] =
      r.wall_seconds > 0 ? static_cast<double>(st.messages) / r.wall_seconds : 0.0;
  // CPU time too: on a shared machine wall time overstates the simulator's cost.
  const double cpu = ProcessCpuSeconds();
  r.extra["cpu_seconds"] = cpu;
  r.extra["sim_messages_per_cpu_second"] = cpu > 0 ? static_cast<double>(st.messages) / cpu : 0.0;
  r.extra["peak_memory_mib"] = PeakMemoryMiB();
  r.extra["platform"] = {{"description", c.platform().description},
                         {"hosts", c.platform().total_hosts}};
  nlohmann::json costs = c.compute().costs().ToJson();
  costs["compute_seconds_per_key_used"] = config.zipf.compute_seconds_per_key;
  r.extra["costs"] = costs;
  if (st.failure.has_value()) {
    char text[160];
    std::snprintf(text, sizeof(text),
                  "node %u failed at simulated time %.6f s (--fail-node); run ended there "
                  "(recovery needs --checkpoint-dir)",
                  st.failure->node, st.failure->at_seconds);
    out.failure = text;
    r.extra["failure"] = {
        {"node", st.failure->node}, {"at_seconds", st.failure->at_seconds}, {"message", text}};
  }
  return out;
}

}  // namespace augur

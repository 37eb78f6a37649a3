#include "experiments/calibration/cost_calibration.h"

#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <asio.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "backends/tcp/raw_ping_pong.h"
#include "core/base/check.h"
#include "core/codec/codec.h"
#include "core/metrics/counter_list.h"
#include "core/protocol/home.h"
#include "core/protocol/node.h"
#include "experiments/calibration/keep_cores_awake.h"
#include "experiments/compare/child_run.h"
#include "experiments/config/flag_list.h"
#include "experiments/jobs/job.h"
#include "experiments/launch/cpu_pinning.h"
#include "experiments/report/run_result.h"

namespace augur {

namespace {

double CpuSeconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Node 1 of 2, dropping what it sends: isolates the handler cost of requests from node 0.
class NullRuntime final : public Runtime {
 public:
  class NoLock final : public Mutex {
   public:
    void lock() override {}
    void unlock() override {}
  };
  class NoPark final : public Parker {
   public:
    void Park() override {}
    void Unpark() override {}
  };
  NodeId self() const override { return 1; }
  uint32_t num_nodes() const override { return 2; }
  void Send(NodeId, std::vector<uint8_t>) override {}
  double Now() override { return 0; }  // never past a stall limit: Fail is not called
  const char* ClockName() const override { return "no"; }
  void Compute(double) override {}
  void SetTimer(double, uint64_t) override {}
  void Fail(const Status& error) override {
    AUGUR_CHECK(false, "the calibration's node failed: %s", error.message().c_str());
  }
  std::unique_ptr<Mutex> NewMutex() override { return std::make_unique<NoLock>(); }
  std::unique_ptr<Parker> NewParker() override { return std::make_unique<NoPark>(); }
};

struct Sample {
  double bytes;
  double seconds;
};

// Mean CPU seconds of OnMessage over pull and push requests of `rows` rows.
// A push carries a delta per key: `delta_rows` value lengths (optimizer.h).
Result<Sample> MeasureHandler(Node& node, const ValueLayout& layout, uint32_t delta_rows,
                              uint32_t rows) {
  constexpr int kIterations = 2000;
  Message pull, push;
  pull.type = MessageType::kPullRequest;
  push.type = MessageType::kPushRequest;
  pull.op_id = push.op_id = 1;
  pull.src = pull.origin = push.src = push.origin = 0;
  uint32_t floats = 0;
  for (Key k = 1; pull.keys.size() < rows; ++k) {
    if (HomeNode(k, 2) != 1) continue;
    pull.keys.push_back(k);
    pull.slots.push_back(floats);
    push.keys.push_back(k);
    floats += layout.Length(k);
  }
  push.values.assign(size_t{floats} * delta_rows, 0.5f);
  const std::vector<uint8_t> frames[2] = {Encode(pull), Encode(push)};
  const double start = CpuSeconds(CLOCK_THREAD_CPUTIME_ID);
  for (int i = 0; i < kIterations; ++i) {
    for (const auto& f : frames) {
      Status s = node.OnMessage(0, f);
      if (!s.ok()) return s.WithContext("calibration frame");
    }
  }
  const double seconds = (CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - start) / (2.0 * kIterations);
  return Sample{(frames[0].size() + frames[1].size()) / 2.0, seconds};
}

// Fixed + per byte through two samples.
std::pair<double, double> Fit(const Sample& small, const Sample& large) {
  const double per_byte =
      std::max(0.0, (large.seconds - small.seconds) / (large.bytes - small.bytes));
  return {std::max(0.0, small.seconds - per_byte * small.bytes), per_byte};
}

// One raw TCP ping-pong size on loopback: per one-way message, its wall time
// and the CPU time of both ends (their threads' CPU clocks).
//   kAnyCores  every core kept awake (KeepCoresAwake), as the workers of a
//              training run keep them, and the ends where the scheduler puts
//              them: the wall time of a large message gives the loopback's
//              bandwidth. Its CPU per message includes the wake-up of the
//              other end and varies with where the ends land (3-40 us per
//              64 B message on the 2-core VM, from run to run), so it is
//              reported, not charged.
//   kOneCore   both ends on one core kept awake: the syscalls and a switch
//              of threads only (3.3-5 us there, steady). This is what a
//              message costs a node whose I/O thread shares its core with
//              its worker, and what the simulator charges per message.
//   kIdle      nothing else runs and the ends are pinned to two cores (when
//              there are two), as two nodes whose workers wait for each
//              other's answers: each message wakes a halted core, and the
//              time that takes beyond the CPU charged is the latency.
enum class Regime { kAnyCores, kOneCore, kIdle };

struct PingPong {
  double bytes = 0;
  double wall = 0;
  double cpu = 0;
};

Result<PingPong> MeasurePingPong(size_t bytes, uint64_t rounds, Regime regime) {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  const uint16_t port = acceptor.local_endpoint().port();
  Status served;
  // kOneCore: both ends on the first allowed CPU; kIdle: on the first two.
  const std::vector<int> cpus = AllowedCpus();
  const bool pin = regime != Regime::kAnyCores && !cpus.empty();
  const int server_cpu = pin ? cpus[regime == Regime::kIdle && cpus.size() >= 2 ? 1 : 0] : -1;
  std::thread server([&] {
    if (pin) (void)PinToCpu(server_cpu);  // the thread ends with the ping-pong
    served = tcp::ServeRawPingPong(acceptor, bytes, bytes);
  });
  auto client = tcp::RawPingPongClient::Connect("127.0.0.1", port, bytes, bytes, 10);
  if (!client.ok()) {
    acceptor.close();
    server.join();
    return client.status();
  }
  clockid_t server_clock{};
  if (pthread_getcpuclockid(server.native_handle(), &server_clock) != 0)
    server_clock = CLOCK_PROCESS_CPUTIME_ID;  // then the spinners' time counts too
  const auto both = [&] { return CpuSeconds(CLOCK_THREAD_CPUTIME_ID) + CpuSeconds(server_clock); };
  std::optional<ScopedCpuPin> client_pin;  // the caller's affinity comes back at return
  if (pin) client_pin.emplace(cpus[0]);
  std::unique_ptr<KeepCoresAwake> awake;
  if (regime != Regime::kIdle)
    awake = std::make_unique<KeepCoresAwake>(std::max(1u, std::thread::hardware_concurrency()));
  Result<double> warm = (*client)->Run(std::max<uint64_t>(1, rounds / 10));
  const double cpu0 = both();
  Result<double> wall = warm.ok() ? (*client)->Run(rounds) : warm;
  const double cpu = both() - cpu0;
  (*client)->Close();
  server.join();
  if (!wall.ok()) return wall.status();
  if (!served.ok()) return served;
  const double messages = 2.0 * static_cast<double>(rounds);
  return PingPong{static_cast<double>(bytes), *wall / messages, cpu / messages};
}

// What the epochs of a 2-node run after its first `skip` cost, summed over
// its processes (jobs/epoch_costs.h, merged by `augur launch`).
// The epochs of a real run, from its first, that the plain wake-up delay's
// fit matches (FitWakeupDelay).
constexpr uint32_t kFitEpochs = 3;

struct MeasuredEpochs {
  double cpu = 0;
  double samples = 0;
  double messages = 0;
  double bytes = 0;
  // The run's first epoch alone (start-up: first touches).
  double first_cpu = 0, first_messages = 0, first_bytes = 0, samples_per_epoch = 0;
  // The whole run's answered timer sync rounds, their round trips, and its
  // training time.
  double round_trips = 0, round_trip_seconds = 0, run_seconds = 0;
  // Node 0's mean epoch time over the measured epochs (0: not recorded).
  double epoch_seconds = 0;
  // And over its first (up to kFitEpochs) epochs, the first included.
  uint32_t first_epochs = 0;
  double first_epochs_seconds = 0;
};

// A result's mean epoch time (node 0's epoch_seconds) after its first `skip` epochs; 0 if none.
double MeanEpochAfter(const nlohmann::json& r, uint32_t skip) {
  const std::vector<double> e = r.value("epoch_seconds", std::vector<double>{});
  if (e.size() <= skip) return 0;
  double sum = 0;
  for (size_t i = skip; i < e.size(); ++i) sum += e[i];
  return sum / static_cast<double>(e.size() - skip);
}

// Runs `augur ARGS` as a child whose output directory is `dir` (created; its
// log in dir/log.txt) and reads dir/result.json. `what` names the run in errors.
Result<nlohmann::json> RunChildResult(const std::vector<std::string>& args, const std::string& dir,
                                      const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  Result<ChildOutcome> out = RunChild(args, dir + "/log.txt");
  if (!out.ok()) return out.status();
  if (out->exit_code != 0)
    return Status::Error(what + " failed (exit code " + std::to_string(out->exit_code) +
                         "); the end of " + dir + "/log.txt:\n" + TailOfFile(dir + "/log.txt", 6));
  std::ifstream in(dir + "/result.json");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(dir + "/result.json is not readable: " + e.what());
  }
}

// `augur launch --local N -- ARGS --epochs E --out DIR` as a child; the
// costs of its epochs after the first `skip`.
Result<MeasuredEpochs> LaunchLocal(uint32_t nodes, const std::string& dir,
                                   const std::vector<std::string>& run_args, uint32_t epochs,
                                   uint32_t skip) {
  // A node per core where the cores allow it, as the simulator models them
  // (--host-cores 1) and as scripts/bench-fidelity.sh runs its cells: on
  // the 2-core VM 2 unpinned mf processes took 25% longer over their first 3
  // epochs (0.115-0.121 s against 0.091-0.093 s an epoch) than pinned ones.
  std::vector<std::string> args = {"launch", "--local", std::to_string(nodes)};
  if (nodes <= AllowedCpus().size()) args.push_back("--pin");
  args.push_back("--");
  args.insert(args.end(), run_args.begin(), run_args.end());
  args.insert(args.end(), {"--epochs", std::to_string(epochs), "--out", dir});
  Result<nlohmann::json> result =
      RunChildResult(args, dir, "the " + std::to_string(nodes) + "-node run");
  if (!result.ok()) return result.status();
  try {
    const nlohmann::json& r = *result;
    const nlohmann::json& cpu = r.at("epoch_process_cpu_seconds");
    const nlohmann::json& messages = r.at("epoch_messages_sent");
    const nlohmann::json& bytes = r.at("epoch_bytes_sent");
    if (cpu.size() != epochs || messages.size() != epochs || bytes.size() != epochs)
      return Status::Error(dir + "/result.json has the costs of " + std::to_string(cpu.size()) +
                           " epochs, not " + std::to_string(epochs));
    MeasuredEpochs m;
    for (uint32_t e = skip; e < epochs; ++e) {
      m.cpu += cpu[e].get<double>();
      m.messages += messages[e].get<double>();
      m.bytes += bytes[e].get<double>();
    }
    // Every epoch trains the same samples.
    m.samples_per_epoch = r.at("samples").get<double>() / epochs;
    m.samples = m.samples_per_epoch * (epochs - skip);
    m.first_cpu = cpu[0].get<double>();
    m.first_messages = messages[0].get<double>();
    m.first_bytes = bytes[0].get<double>();
    m.round_trips = r.value("sync_round_trips", 0.0);
    m.round_trip_seconds = 1e-6 * r.value("sync_round_trip_micros", 0.0);
    m.run_seconds = r.value("total_seconds", 0.0);
    m.epoch_seconds = MeanEpochAfter(r, skip);
    const std::vector<double> e = r.value("epoch_seconds", std::vector<double>{});
    m.first_epochs = static_cast<uint32_t>(std::min<size_t>(kFitEpochs, e.size()));
    for (uint32_t i = 0; i < m.first_epochs; ++i) m.first_epochs_seconds += e[i] / m.first_epochs;
    return m;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(dir +
                         "/result.json is not a readable result with per-epoch costs: " + e.what());
  }
}

// The workload's run: `augur launch --local NODES -- FLAGS --workers W`
// into `dir` below the work directory.
Result<MeasuredEpochs> LaunchWorkload(const RunConfig& config, const CalibrationOptions& o,
                                      uint32_t nodes, const std::string& dir, uint32_t workers,
                                      uint32_t epochs, uint32_t skip) {
  std::vector<std::string> args = {"--workload", config.workload};
  const std::vector<std::string> flags = WithoutFlag(o.run_flags, "--workers");
  args.insert(args.end(), flags.begin(), flags.end());
  // No evaluation: calibrate reads the epochs' costs only (zipf has none).
  args.insert(args.end(), {"--workers", std::to_string(workers)});
  if (config.workload != "zipf") args.push_back("--no-eval");
  return LaunchLocal(nodes, o.work_dir + "/" + dir, args, epochs, skip);
}

// A message to a process whose cores are busy with its workers waits for the
// scheduler to give the I/O thread (or the parked worker it answers) a core.
// The 2-node run's timer sync rounds measure it: a round trip is the
// request's and the answer's handling and link, which the simulator
// models, plus two such waits. The mean wait is what the rest of the mean
// round trip leaves, halved; the simulator draws each wait from an
// exponential distribution of that mean (the measured round trips have its
// long tail: on the 2-core VM a median of 0.6-1.5 ms, a 90th percentile of
// 3.5 ms). A run without replicas has no sync rounds: then not measured.
// Nor is a run whose rounds were rare: its rounds were large and waited for
// their own bulk and each other's, which the simulator models as handling
// and transfers (wv with pool sampling, 1.2M replicas created: 62 rounds
// answered in 15 s, a mean of 15.3 ms, against 80-400 rounds a second and
// 1.2-1.5 ms for kge, mf and wv with naive sampling).
void SetWakeupDelay(const MeasuredEpochs& m, SimCosts* costs) {
  constexpr double kLeastRoundTrips = 20;
  constexpr double kLeastRoundsPerSecond = 20;
  const auto not_measured = [&](const std::string& why) {
    costs->wakeup_delay_seconds = 0;
    costs->wakeup_delay_source = "not measured: the 2-node run answered " +
                                 std::to_string(static_cast<int>(m.round_trips)) +
                                 " timer sync rounds" + why;
  };
  if (m.round_trips < kLeastRoundTrips)
    return not_measured(" (a policy without replicas has none)");
  if (m.run_seconds > 0 && m.round_trips < kLeastRoundsPerSecond * m.run_seconds)
    return not_measured(
        " in " + std::to_string(m.run_seconds) + " s: fewer than " +
        std::to_string(static_cast<int>(kLeastRoundsPerSecond)) +
        " a second: large rounds, waiting for their own bulk, not for the scheduler");
  const double mean = m.round_trip_seconds / m.round_trips;
  const double modelled =
      2 * (std::max(0.0, costs->loopback_latency_seconds) + costs->MessageSeconds(0));
  costs->wakeup_delay_seconds = std::max(0.0, (mean - modelled) / 2);
  costs->wakeup_delay_source = "half of what the mean round trip of the 2-node run's " +
                               std::to_string(static_cast<int>(m.round_trips)) +
                               " timer sync rounds (" + std::to_string(1e6 * mean) +
                               " us) leaves beyond two messages' modelled link and handling";
  std::fprintf(stderr,
               "calibrate: %.0f timer sync rounds, mean round trip %.1f us: a busy node's wake-up "
               "waits %.1f us on average\n",
               m.round_trips, 1e6 * mean, 1e6 * costs->wakeup_delay_seconds);
}

// What a message costs in real Augur processes beyond its bytes: the fixed
// part, with every syscall, wake-up and thread switch it causes at both
// ends. Two zipf runs of 2 processes x 1 worker (classic, uniform keys) make
// the same key accesses in batches of 64 and of 16, i.e. one and four times
// the messages; the difference of their CPU, less the bytes' cost, over the
// difference of their messages. (The ping-pong and handler measurements
// leave out the wake-ups of a worker parked for its answer: on the 2-core VM
// they give about 2.7 us a message, this 10-12 us.)
struct MessageProbe {
  double seconds_per_message = 0;
  double extra_messages = 0;  // how many more the small batches sent
};

Result<MessageProbe> MeasureMessageCpu(const CalibrationOptions& o, double seconds_per_byte) {
  constexpr uint32_t kAccesses = 9600, kEpochs = 33;
  MeasuredEpochs at[2];
  const uint32_t batch[2] = {64, 16};
  for (int i = 0; i < 2; ++i) {
    const std::vector<std::string> args = {"--workload",   "zipf",
                                           "--pattern",    "uniform",
                                           "--keys",       "20000",
                                           "--dim",        "64",
                                           "--seed",       "5",
                                           "--policy",     "classic",
                                           "--workers",    "1",
                                           "--batch-size", std::to_string(batch[i]),
                                           "--batches",    std::to_string(kAccesses / batch[i])};
    Result<MeasuredEpochs> m =
        LaunchLocal(2, o.work_dir + "/message-probe-b" + std::to_string(batch[i]), args, kEpochs,
                    /*skip=*/1);
    if (!m.ok())
      return m.status().WithContext("the message probe (zipf, batch " + std::to_string(batch[i]) +
                                    ")");
    at[i] = *m;
  }
  MessageProbe p;
  p.extra_messages = at[1].messages - at[0].messages;
  if (!(p.extra_messages > 0))
    return Status::Error("the message probe's small batches sent no more messages");
  p.seconds_per_message = ((at[1].cpu - seconds_per_byte * at[1].bytes) -
                           (at[0].cpu - seconds_per_byte * at[0].bytes)) /
                          p.extra_messages;
  return p;
}

// One of the wake-up delay fits below: which simulated run it fits.
struct DelayFitRun {
  const char* dir_prefix;  // below the work directory, one per simulation
  bool time_sliced;        // `augur sim --time-sliced` (else the plain delay)
  const char* what;        // the simulated run, in errors
  uint32_t workers;        // per node, as in the real run
};

// The simulated run's mean epoch time after its first `skip` epochs at a
// wake-up delay: `augur sim` of the real run's job (model compute: the same
// charges, without the maths) with the costs so far.
Result<double> SimulatedEpoch(const RunConfig& config, const CalibrationOptions& o,
                              const std::string& costs_path, const DelayFitRun& run, uint32_t nodes,
                              uint32_t epochs, uint32_t skip, double delay, int step) {
  const std::string dir = o.work_dir + "/" + run.dir_prefix + std::to_string(step);
  std::vector<std::string> args = {"sim", "--workload", config.workload};
  const std::vector<std::string> flags = WithoutFlag(o.run_flags, "--workers");
  args.insert(args.end(), flags.begin(), flags.end());
  char d[32];
  std::snprintf(d, sizeof d, "%.9fs", delay);
  // No evaluation: only the epochs count (a kge evaluation of 5,000 WordNet
  // triples took 87 of a simulation's 100 s).
  args.insert(args.end(),
              {"--workers", std::to_string(run.workers), "--nodes", std::to_string(nodes),
               "--epochs", std::to_string(epochs), "--costs", costs_path});
  if (config.workload != "zipf") args.push_back("--no-eval");
  if (run.time_sliced) args.push_back("--time-sliced");
  args.insert(args.end(),
              {"--compute", "model", "--wakeup-delay", d, "--no-progress", "--out", dir});
  Result<nlohmann::json> result = RunChildResult(args, dir, run.what);
  if (!result.ok()) return result.status();
  const double mean = MeanEpochAfter(*result, skip);
  if (!(mean > 0)) return Status::Error(dir + "/result.json has no epochs to measure");
  return mean;
}

struct DelayFit {
  double delay = 0;
  double without = 0;  // the simulated epoch without a delay
  double best = 0;     // and with the fitted one
  int simulations = 0;
};

// The delay whose simulated epoch (epoch_at) comes closest to `target`: a
// grid of delays up to 1.6 ms (the longest a real round trip's median took
// on the 2-core VM was 1.5 ms; the epoch is not monotonic in the delay: a
// longer one can mean fewer sync rounds and messages), stopping once the
// epoch has crossed the target and grows; then regula falsi in the first
// interval whose ends lie on either side of it. The closest simulation wins.
// Delays in whole nanoseconds: what the simulations are given, exactly.
// Grid points above `max_delay` are tried once, as max_delay itself.
Result<DelayFit> FitDelay(const std::function<Result<double>(double)>& epoch_at, double target,
                          double max_delay = 1.6e-3) {
  const auto ns = [](double seconds) { return std::round(seconds * 1e9) / 1e9; };
  constexpr double kGrid[] = {0, 25e-6, 50e-6, 100e-6, 200e-6, 400e-6, 800e-6, 1600e-6};
  constexpr double kTolerance = 0.02;  // of the target
  DelayFit fit;
  double best_gap = 0;
  double lo = -1, e_lo = 0, hi = -1, e_hi = 0;  // the interval to refine, if any
  double prev_d = -1, prev_e = 0;
  const auto at = [&](double d) -> Result<double> {
    ++fit.simulations;
    Result<double> e = epoch_at(d);
    if (!e.ok()) return e;
    if (fit.simulations == 1) fit.without = *e, fit.best = *e, best_gap = std::abs(*e - target);
    if (std::abs(*e - target) < best_gap)
      fit.delay = d, fit.best = *e, best_gap = std::abs(*e - target);
    return e;
  };
  for (double grid_d : kGrid) {
    const double d = std::min(grid_d, ns(max_delay));
    if (d <= prev_d) break;  // max_delay was tried already
    Result<double> e = at(d);
    if (!e.ok()) return e.status();
    if (best_gap <= kTolerance * target) break;
    const bool crossed = prev_d >= 0 && (prev_e - target) * (*e - target) < 0;
    if (crossed && lo < 0) lo = prev_d, e_lo = prev_e, hi = d, e_hi = *e;
    if (lo >= 0 && *e > target && *e > prev_e) break;
    prev_d = d, prev_e = *e;
  }
  for (int i = 0; i < 4 && lo >= 0 && best_gap > kTolerance * target; ++i) {
    const double d = ns(lo + (hi - lo) * (target - e_lo) / (e_hi - e_lo));
    if (d <= lo || d >= hi) break;
    Result<double> e = at(d);
    if (!e.ok()) return e.status();
    // Keep the end on the same side as the new point's.
    if ((*e - target) * (e_lo - target) > 0)
      lo = d, e_lo = *e;
    else
      hi = d, e_hi = *e;
  }
  return fit;
}

// With more processes than cores a message waits for a core that the other
// nodes' processes hold, or for the core its thread last ran on while the
// other idles, which the simulated machine (--shared-cores, work-conserving)
// does not show: on the 2-core VM 3 zipf processes kept the cores 83% busy
// and took 49.4 ms an epoch where the simulator, without a delay, took 38.4
// ms. The time-sliced wake-up delay is the mean that makes the simulated
// run's epochs (after the first) the closest to the real run's measured
// ones, over `augur sim` runs of the same job (deterministic: the same real
// run always gives the same delay). The epochs, not the workers' waits: the
// waits include the cores' sharing, which the machine model has already
// (kge: real workers waited 139 ms of a 0.51 s epoch, simulated ones 6 ms,
// while the simulated epoch was already 6-17% longer than the real one).
// Not measured (the plain wake-up delay applies) when the simulator cannot
// run the job's flags.
void FitTimeSlicedWakeupDelay(const RunConfig& config, const CalibrationOptions& o,
                              const MeasuredEpochs& real, uint32_t nodes, uint32_t real_epochs,
                              SimCosts* costs) {
  const auto not_measured = [&](const std::string& why) {
    costs->time_sliced_wakeup_delay_seconds = -1;
    costs->time_sliced_wakeup_delay_source = "not measured: " + why;
    std::fprintf(stderr, "calibrate: time-sliced wake-up delay not measured: %s\n", why.c_str());
  };
  const double target = real.epoch_seconds;
  if (!(target > 0)) return not_measured("the time-sliced run recorded no epoch times");
  const std::string path = o.work_dir + "/costs-before-fit.json";
  if (Status w = WriteCostsFile(path, *costs); !w.ok()) return not_measured(w.message());
  const uint32_t skip = o.base_epochs;
  const uint32_t epochs = std::min(real_epochs, skip + 2);
  const DelayFitRun run{"time-sliced-fit-", true, "`augur sim` of the time-sliced run", 1};
  int step = 0;
  Result<DelayFit> fit = FitDelay(
      [&](double d) {
        return SimulatedEpoch(config, o, path, run, nodes, epochs, skip, d, step++);
      },
      target);
  if (!fit.ok()) return not_measured(fit.status().message());
  costs->time_sliced_wakeup_delay_seconds = fit->delay;
  char line[256];
  std::snprintf(line, sizeof line,
                "fitted: `augur sim --time-sliced` of the %u-process run takes its epochs' "
                "%.2f ms (%.2f ms without a delay, %.2f ms with it; %d simulations)",
                nodes, 1e3 * target, 1e3 * fit->without, 1e3 * fit->best, fit->simulations);
  costs->time_sliced_wakeup_delay_source = line;
  std::fprintf(stderr, "calibrate: time-sliced wake-up delay %.1f us (%s)\n", 1e6 * fit->delay,
               line);
}

// The loopback's latency as the 2-node run meets it. A ping-pong between two
// otherwise idle cores waits for a halted core to be woken on every message
// (on the 2-core VM 34-42 us one way, against 0.2 us with the cores kept
// awake); in a running job the cores are mostly busy, so most messages find
// theirs awake. A zipf job of 2 processes whose workers wait for each other's
// answers every batch took 0.146 s an epoch where the simulator, charging the
// idle figure on every message, took 0.224 s (and 0.111 s with none), with
// the same messages and CPU. The latency is fitted instead, as the wake-up
// delays are: the one-way latency, up to the idle ping-pong's, that makes
// `augur sim` of the 2-node run's job take as long as its measured epochs
// (after the first). Kept at the idle figure when the simulator cannot run
// the job or the run recorded no epoch times.
void FitLoopbackLatency(const RunConfig& config, const CalibrationOptions& o,
                        const MeasuredEpochs& real, uint32_t workers, uint32_t real_epochs,
                        SimCosts* costs) {
  const double idle = costs->loopback_latency_seconds;
  const auto kept = [&](const std::string& why) {
    costs->loopback_latency_source =
        "a 64-byte ping-pong between idle cores (not fitted: " + why + ")";
    std::fprintf(stderr, "calibrate: loopback latency not fitted: %s\n", why.c_str());
  };
  if (!(real.epoch_seconds > 0)) return kept("the 2-node run recorded no epoch times");
  const uint32_t skip = o.base_epochs;
  const uint32_t epochs = std::min(real_epochs, skip + 2);
  const DelayFitRun run{"latency-fit-", false, "`augur sim` of the 2-node run", workers};
  int step = 0;
  Result<DelayFit> fit = FitDelay(
      [&](double latency) -> Result<double> {
        SimCosts c = *costs;
        c.loopback_latency_seconds = latency;
        const std::string path =
            o.work_dir + "/costs-latency-fit-" + std::to_string(step) + ".json";
        if (Status w = WriteCostsFile(path, c); !w.ok()) return w;
        return SimulatedEpoch(config, o, path, run, 2, epochs, skip, c.wakeup_delay_seconds,
                              step++);
      },
      real.epoch_seconds, idle);
  if (!fit.ok()) return kept(fit.status().message());
  costs->loopback_latency_seconds = fit->delay;
  char line[320];
  std::snprintf(line, sizeof line,
                "fitted: `augur sim` of the 2-node run takes its measured epochs' %.2f ms (%.2f ms "
                "with no latency, %.2f ms with it; %d simulations; a ping-pong between idle "
                "cores gave %.1f us)",
                1e3 * real.epoch_seconds, 1e3 * fit->without, 1e3 * fit->best, fit->simulations,
                1e6 * idle);
  costs->loopback_latency_source = line;
  std::fprintf(stderr, "calibrate: loopback latency %.1f us one way (%s)\n",
               1e6 * costs->loopback_latency_seconds, line);
}

// The sync rounds' estimate of the plain wake-up delay (SetWakeupDelay)
// charges every message the waits of rounds that also queued behind bulk
// transfers: mf under --partition block answers its few rounds at sub-epoch
// boundaries, amid its relocations (2.5 ms round trips, a 1.1-1.2 ms
// delay), and the simulated first epoch, which relocates every row into
// place, then took 0.22 s against the real 0.13-0.15 s (0.14 s without a
// delay). The delay is fitted instead, as the time-sliced one is: the mean
// that makes `augur sim` of the 2-node run's job take as long as its first
// kFitEpochs real epochs (the start-up and the steady state both), over a
// grid of delays up to 1.6 ms. Kept from the rounds when the simulator
// cannot run the job's flags; used as it is when the rounds measured none.
void FitWakeupDelay(const RunConfig& config, const CalibrationOptions& o,
                    const MeasuredEpochs& real, uint32_t workers, SimCosts* costs) {
  if (!(costs->wakeup_delay_seconds > 0) || !(real.first_epochs_seconds > 0)) return;
  const std::string path = o.work_dir + "/costs-before-wakeup-fit.json";
  if (Status w = WriteCostsFile(path, *costs); !w.ok()) {
    std::fprintf(stderr, "calibrate: wake-up delay not fitted: %s\n", w.message().c_str());
    return;
  }
  const DelayFitRun run{"wakeup-fit-", false, "`augur sim` of the 2-node run", workers};
  int step = 0;
  Result<DelayFit> fit = FitDelay(
      [&](double d) {
        return SimulatedEpoch(config, o, path, run, 2, real.first_epochs, 0, d, step++);
      },
      real.first_epochs_seconds);
  if (!fit.ok()) {
    std::fprintf(stderr, "calibrate: wake-up delay not fitted: %s\n",
                 fit.status().message().c_str());
    return;
  }
  char line[320];
  std::snprintf(line, sizeof line,
                "fitted: `augur sim` of the 2-node run takes its first %u epochs' %.2f ms "
                "(%.2f ms without a delay, %.2f ms with it; %d simulations; the sync rounds "
                "gave %.1f us)",
                real.first_epochs, 1e3 * real.first_epochs_seconds, 1e3 * fit->without,
                1e3 * fit->best, fit->simulations, 1e6 * costs->wakeup_delay_seconds);
  costs->wakeup_delay_seconds = fit->delay;
  costs->wakeup_delay_source = line;
  std::fprintf(stderr, "calibrate: wake-up delay %.1f us (%s)\n", 1e6 * fit->delay, line);
}

}  // namespace

// Calibrate measures the time-sliced worker cost on machines of at most
// this many cores + 1.
constexpr uint32_t kMaxTimeSlicedProcesses = 9;

uint32_t MeasureWorkers(uint32_t job_workers) {
  const uint32_t per_process = std::max(1u, std::thread::hardware_concurrency() / 2);
  return std::max(1u, std::min(job_workers, per_process));
}

Result<SimCosts> CalibrateCosts(const RunConfig& config, const CalibrationOptions& options) {
  SimCosts costs;
  costs.workload = config.workload;
  costs.machine = MachineDescription();
  costs.git_commit = GitCommit();
  costs.cores = std::max(1u, std::thread::hardware_concurrency());

  // The socket: latency, bandwidth, CPU per message and per byte.
  constexpr size_t kLarge = 256 * 1024;
  Result<PingPong> small = MeasurePingPong(64, 20000, Regime::kAnyCores);
  if (!small.ok()) return small.status().WithContext("loopback ping-pong of 64 B");
  Result<PingPong> large = MeasurePingPong(kLarge, 400, Regime::kAnyCores);
  if (!large.ok()) return large.status().WithContext("loopback ping-pong of 256 KiB");
  Result<PingPong> small1 = MeasurePingPong(64, 20000, Regime::kOneCore);
  if (!small1.ok()) return small1.status().WithContext("loopback ping-pong of 64 B on one core");
  Result<PingPong> large1 = MeasurePingPong(kLarge, 400, Regime::kOneCore);
  if (!large1.ok()) return large1.status().WithContext("loopback ping-pong of 256 KiB on one core");
  Result<PingPong> idle = MeasurePingPong(64, 5000, Regime::kIdle);
  if (!idle.ok()) return idle.status().WithContext("loopback ping-pong of 64 B, cores idle");
  const auto [socket_fixed, socket_per_byte] =
      Fit({small->bytes, small->cpu}, {large->bytes, large->cpu});
  const auto [socket1_fixed, socket1_per_byte] =
      Fit({small1->bytes, small1->cpu}, {large1->bytes, large1->cpu});
  // What a small message takes beyond the CPU the simulator charges for it on
  // the hosts, when it has to wake a halted core (as whenever a node waits
  // for an answer). With the cores kept awake it is about nothing.
  // (FitLoopbackLatency below replaces it with what a running job meets.)
  costs.loopback_latency_seconds = std::max(0.0, idle->wall - small1->cpu);
  costs.loopback_latency_source = "a 64-byte ping-pong between idle cores";
  const double extra_wall = large->wall - small->wall;
  // The bytes' one-way time; no measurable extra time means a link far faster than the CPU.
  costs.loopback_bandwidth_bytes_per_second =
      extra_wall > 0 ? (large->bytes - small->bytes) / extra_wall : 1e12;

  // The handler, on the workload's layout and optimizer.
  Result<std::unique_ptr<Job>> job = MakeJob(config);
  if (!job.ok()) return job.status();
  NullRuntime runtime;
  NodeOptions no = (*job)->MakeNodeOptions();
  no.workers = 1;
  const ValueLayout layout = no.layout;
  Node node(no, runtime);
  const uint32_t delta_rows = 1 + no.optimizer.StateRows();
  Result<Sample> h8 = MeasureHandler(node, layout, delta_rows, 8);
  if (!h8.ok()) return h8.status();
  Result<Sample> h256 = MeasureHandler(node, layout, delta_rows, 256);
  if (!h256.ok()) return h256.status();
  const auto [handler_fixed, handler_per_byte] = Fit(*h8, *h256);
  costs.seconds_per_message = handler_fixed + socket1_fixed;
  costs.seconds_per_message_byte = handler_per_byte + socket1_per_byte;
  // A message read with others in one wake-up pays its handling only: a
  // burst of relocations (mf under --partition block moves every row into
  // place in its first epoch: 6,000 frames a node, 4,700 more than a later
  // epoch's, for 55-65 ms more CPU, where a message's full cost gave 85 ms
  // and the simulated first epoch 0.17-0.26 s against the real 0.11-0.16 s).
  costs.seconds_per_coalesced_message = handler_fixed;
  const double ping_pong_per_message = costs.seconds_per_message;
  // A frame that finds the node's I/O thread awake (it reads it as it
  // finishes the previous one) pays the syscalls and the handling, not the
  // cross-core wake-up that makes most of a message's cost on a VM: the
  // handler and the ping-pong with both ends on one core.
  costs.seconds_per_awake_message = ping_pong_per_message;
  Result<MessageProbe> probe = MeasureMessageCpu(options, costs.seconds_per_message_byte);
  if (!probe.ok()) return probe.status();
  std::fprintf(stderr,
               "calibrate: handler %.0f ns + %.3f ns/B, socket %.0f ns + %.3f ns/B per message "
               "on one core (charged; %.0f ns + %.3f ns/B across cores); 64 B one way %.1f us "
               "wall, %.1f us CPU (%.1f us wall with the cores idle); 256 KiB one way %.1f us "
               "wall\n",
               1e9 * handler_fixed, 1e9 * handler_per_byte, 1e9 * socket1_fixed,
               1e9 * socket1_per_byte, 1e9 * socket_fixed, 1e9 * socket_per_byte, 1e6 * small->wall,
               1e6 * small->cpu, 1e6 * idle->wall, 1e6 * large->wall);

  // The probe's figure when it is the larger; a smaller one is noise (the
  // handler and the syscalls are part of every message).
  if (probe->seconds_per_message > ping_pong_per_message) {
    costs.seconds_per_message = probe->seconds_per_message;
    costs.message_cost_source = "two zipf runs of `augur launch --local 2`, batch 16 against 64 (" +
                                std::to_string(static_cast<uint64_t>(probe->extra_messages)) +
                                " more messages): CPU per message beyond its bytes";
  } else {
    costs.message_cost_source = "handler and one-core ping-pong (the message probe measured less)";
  }
  std::fprintf(stderr,
               "calibrate: a message costs %.2f us of CPU in real processes (batch 16 against 64, "
               "%.0f more messages), %.2f us by the handler and ping-pong; charged %.2f us + "
               "%.3f ns/B\n",
               1e6 * probe->seconds_per_message, probe->extra_messages, 1e6 * ping_pong_per_message,
               1e6 * costs.seconds_per_message, 1e9 * costs.seconds_per_message_byte);

  const uint32_t workers =
      options.measure_workers > 0 ? options.measure_workers : MeasureWorkers(config.workers);
  // One run; its epochs after the first base_epochs are measured, more of
  // them until their CPU is large against the noise.
  constexpr double kMinExtraCpu = 4.0;  // seconds
  constexpr uint32_t kMaxExtraEpochs = 256;
  uint32_t extra = options.extra_epochs;
  double cpu = 0, samples = 0, handling = 0;
  Result<MeasuredEpochs> m = Status::Error("not run");
  for (;;) {
    const uint32_t epochs = options.base_epochs + extra;
    m = LaunchWorkload(config, options, 2, "launch-e" + std::to_string(epochs), workers, epochs,
                       options.base_epochs);
    if (!m.ok()) return m.status();
    cpu = m->cpu;
    samples = m->samples;
    // Enough CPU against the handling's noise (judged by the ping-pong's
    // figure, as before the probe: a message-bound run never gets to twice
    // the probe's).
    const double least =
        m->messages * ping_pong_per_message + m->bytes * costs.seconds_per_message_byte;
    if ((cpu >= kMinExtraCpu && cpu > 2 * least) || extra >= kMaxExtraEpochs) break;
    extra *= 4;
  }
  if (!(samples > 0)) return Status::Error("the calibration run's measured epochs did no samples");
  const auto handling_of = [&](const MeasuredEpochs& e) {
    return e.messages * costs.seconds_per_message + e.bytes * costs.seconds_per_message_byte;
  };
  handling = handling_of(*m);
  // A run whose messages would take (nearly) all its CPU at the probe's
  // figure pays less per message than the probe's small frames did (larger
  // batches of wake-ups): the ping-pong's figure, which leaves the worker
  // its share, is charged then.
  constexpr double kLeastWorkerShare = 0.1;
  if (costs.seconds_per_message > ping_pong_per_message &&
      !(cpu - handling > kLeastWorkerShare * cpu)) {
    costs.seconds_per_message = ping_pong_per_message;
    costs.message_cost_source =
        "handler and one-core ping-pong (at the message probe's figure this run's messages "
        "took more than " +
        std::to_string(static_cast<int>(100 * (1 - kLeastWorkerShare))) + "% of its CPU)";
    handling = handling_of(*m);
  }
  std::fprintf(stderr,
               "calibrate: 2-node run (%u workers each), its last %u epochs: %.3f s CPU, %.0f "
               "samples, %.0f messages, %.0f bytes; their handling %.3f s\n",
               workers, extra, cpu, samples, m->messages, m->bytes, handling);
  if (!(cpu > handling))
    return Status::Error(
        "the 2-node run's epochs used no more CPU than their messages' handling "
        "cost (" +
        std::to_string(cpu) + " s vs " + std::to_string(handling) +
        " s): too short to measure; give more --extra-epochs or a larger data "
        "set");
  // A run's worker cost: its measured epochs' CPU beyond their messages'
  // handling, per sample.
  const auto worker_cost_of = [&](const MeasuredEpochs& e) {
    return (e.cpu - handling_of(e)) / e.samples;
  };
  const double per_sample = worker_cost_of(*m);
  const bool per_key = config.workload == "zipf";  // a zipf sample is one key access
  const std::string how = "CPU of `augur launch --local 2 -- --workers " + std::to_string(workers) +
                          "` (TCP, loopback) in its last " + std::to_string(extra) + " of " +
                          std::to_string(options.base_epochs + extra) +
                          " epochs, minus its messages' handling cost, per ";
  (per_key ? costs.seconds_per_key : costs.seconds_per_sample) = per_sample;
  costs.worker_cost_source = how + (per_key ? "key access" : "sample");
  // What the first epoch cost beyond the later ones, per sample (zipf: per
  // key access): start-up (first touches of the rows, page faults), which
  // the simulator adds to its first epoch.
  const double first_handling =
      handling_of(MeasuredEpochs{.messages = m->first_messages, .bytes = m->first_bytes});
  if (m->samples_per_epoch > 0)
    costs.first_epoch_extra_seconds_per_sample =
        std::max(0.0, (m->first_cpu - first_handling) / m->samples_per_epoch - per_sample);

  FitLoopbackLatency(config, options, *m, workers, options.base_epochs + extra, &costs);
  SetWakeupDelay(*m, &costs);
  FitWakeupDelay(config, options, *m, workers, &costs);

  // The same with the processes time-sliced: one more process (of one
  // worker) than there are cores, the same epochs measured. Skipped on
  // machines whose cores make that many processes a large run.
  const uint32_t sliced = costs.cores + 1;
  if (sliced > kMaxTimeSlicedProcesses) {
    costs.time_sliced_cost_source = "not measured: " + std::to_string(sliced) +
                                    " processes are more than calibrate starts (" +
                                    std::to_string(kMaxTimeSlicedProcesses) + ")";
    return costs;
  }
  const uint32_t epochs = options.base_epochs + extra;
  Result<MeasuredEpochs> s =
      LaunchWorkload(config, options, sliced, "time-sliced-n" + std::to_string(sliced), 1, epochs,
                     options.base_epochs);
  if (!s.ok()) return s.status().WithContext("the time-sliced run");
  if (!(s->samples > 0))
    return Status::Error("the time-sliced run's measured epochs did no samples");
  // At most 0 when its messages' handling, at the 2-process figure, took all
  // its CPU: kept below as the cost with a core per process.
  const double sliced_per_sample = worker_cost_of(*s);
  std::fprintf(stderr,
               "calibrate: %u-node run (1 worker each, on %u cores), its last %u epochs: %.3f s "
               "CPU, %.0f samples, %.0f messages: %.1f ns per sample against %.1f ns\n",
               sliced, costs.cores, extra, s->cpu, s->samples, s->messages, 1e9 * sliced_per_sample,
               1e9 * per_sample);
  // Time slicing does not make a sample cheaper: a smaller figure is the
  // noise of subtracting many messages' handling (zipf), and the figure
  // with a core per process is kept.
  const bool kept = sliced_per_sample < per_sample;
  (per_key ? costs.seconds_per_key_time_sliced : costs.seconds_per_sample_time_sliced) =
      std::max(sliced_per_sample, per_sample);
  costs.time_sliced_processes = sliced;
  costs.time_sliced_cost_source =
      "CPU of `augur launch --local " + std::to_string(sliced) + " -- --workers 1` on " +
      std::to_string(costs.cores) + " cores (TCP, loopback) in its last " + std::to_string(extra) +
      " of " + std::to_string(epochs) + " epochs, minus its messages' handling cost, per " +
      (per_key ? "key access" : "sample") +
      (kept ? " (measured below the cost with a core per process, which is kept)" : "");
  FitTimeSlicedWakeupDelay(config, options, *s, sliced, epochs, &costs);
  return costs;
}

}  // namespace augur

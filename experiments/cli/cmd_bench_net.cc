// `augur bench-net`: remote pull throughput of the TCP backend between two
// processes on loopback, next to a raw Asio ping-pong of the same bytes
// between the same two processes (DESIGN.md §5: compare against a reference).
// The two are timed in alternating blocks (which of the two goes first
// alternates too), so a change in machine load affects both alike; the
// verdict is the median of the blocks' ratios.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

#include "backends/tcp/free_port.h"
#include "backends/tcp/handshake.h"
#include "backends/tcp/raw_ping_pong.h"
#include "backends/tcp/tcp_runtime.h"
#include "backends/tcp/tcp_transport.h"
#include "core/codec/codec.h"
#include "core/config/units.h"
#include "experiments/cli/command.h"
#include "experiments/launch/cpu_pinning.h"

namespace augur {

namespace {

struct BenchFlags {
  uint32_t dim = 100;
  uint32_t batch = 256;
  uint64_t batches = 2000;
  uint64_t warmup = 200;
  uint32_t blocks = 10;
  uint16_t port = 0;
  std::string wire_security = tcp::WireSecurityName(tcp::kDefaultWireSecurity);
  std::string pin = "auto";
  std::string emulate_latency = "0s";
};

// Frame sizes of one pull: request and response, with the transport envelope.
std::pair<size_t, size_t> PullFrameBytes(const BenchFlags& f) {
  Message req;
  req.type = MessageType::kPullRequest;
  req.keys.assign(f.batch, 0);
  req.slots.assign(f.batch, 0);
  Message resp = req;
  resp.type = MessageType::kPullResponse;
  resp.values.assign(size_t{f.batch} * f.dim, 0.f);
  return {EncodedSize(req) + tcp::kTransportHeaderBytes,
          EncodedSize(resp) + tcp::kTransportHeaderBytes};
}

// Rank 1's measurement: pulls and raw round trips in alternating blocks.
struct Timings {
  double pull_seconds = 0;
  double raw_seconds = 0;
  std::vector<double> block_ratios;  // pull rate / raw rate, per block
};

using Measure = std::function<Status(Worker&, Node&)>;

// One node of the 2-node cluster with one worker, which runs `measure` (if
// any) and then the final barrier; rank 0 only serves. A lost peer ends the
// node through Abandon (its worker's waits fail, so it returns) and the
// normal shutdown; the error is returned.
Status RunPullNode(const BenchFlags& f, tcp::TcpOptions o, const Measure& measure) {
  auto runtime = std::make_unique<tcp::TcpRuntime>(o);
  NodeOptions no;
  no.workers = 1;
  no.layout = ValueLayout(f.dim);
  auto node = std::make_unique<Node>(no, *runtime);
  if (Status s = runtime->Start(node.get()); !s.ok()) {
    runtime.reset();  // stops the I/O thread before the node goes away
    return s;
  }
  std::atomic<bool> done{false};
  Status measured;
  std::thread worker([&] {
    Worker& w = node->worker(0);
    if (measure) measured = measure(w, *node);
    if (Status s = w.Barrier(); measured.ok()) measured = s;
    done.store(true);
    runtime->transport().Notify();
  });
  Status s = runtime->transport().WaitFor([&] { return done.load(); });
  if (!s.ok()) runtime->Abandon();
  worker.join();
  if (s.ok()) s = measured;
  if (s.ok()) s = runtime->Finish();
  runtime.reset();  // stops the I/O thread before the node goes away
  return s;
}

// The measuring process's error: one line, the serving child stopped.
int Fail(const std::string& what, pid_t child) {
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  return RunError(what);
}

Status MeasurePulls(const BenchFlags& f, tcp::RawPingPongClient& raw, Worker& w, Node& node,
                    Timings* t) {
  using Clock = std::chrono::steady_clock;
  std::vector<Key> keys;
  for (Key k = 0; keys.size() < f.batch; ++k)
    if (node.HomeOf(k) == 0) keys.push_back(k);
  std::vector<float> out(w.TotalLength(keys));
  for (uint64_t i = 0; i < f.warmup; ++i)
    if (Status s = w.Wait(w.Pull(keys, out)); !s.ok()) return s;
  if (Result<double> r = raw.Run(f.warmup); !r.ok()) return r.status();
  for (uint32_t b = 0; b < f.blocks; ++b) {
    const uint64_t n = f.batches / f.blocks + (b < f.batches % f.blocks ? 1 : 0);
    if (n == 0) continue;
    // Which of the two goes first alternates from block to block.
    Result<double> rawt = 0.0;
    if (b % 2 == 1) rawt = raw.Run(n);
    if (!rawt.ok()) return rawt.status();
    const Clock::time_point start = Clock::now();
    for (uint64_t i = 0; i < n; ++i)
      if (Status s = w.Wait(w.Pull(keys, out)); !s.ok()) return s;
    const double pull = std::chrono::duration<double>(Clock::now() - start).count();
    if (b % 2 == 0) rawt = raw.Run(n);
    if (!rawt.ok()) return rawt.status();
    t->pull_seconds += pull;
    t->raw_seconds += *rawt;
    t->block_ratios.push_back(*rawt / pull);
  }
  return Status::Ok();
}

int BenchNet(const BenchFlags& f) {
  if (f.dim == 0 || f.batch == 0 || f.batches == 0 || f.blocks == 0) {
    return UsageError("--dim, --batch, --batches and --blocks must be at least 1");
  }
  if (f.blocks > f.batches)
    return UsageError("--blocks " + std::to_string(f.blocks) + " is more than --batches " +
                      std::to_string(f.batches) + ": a block is at least one batch");
  Result<tcp::WireSecurity> mode = tcp::ParseWireSecurity(f.wire_security);
  if (!mode.ok()) return UsageError("--wire-security: " + mode.status().message());
  Result<double> latency = ParseDuration(f.emulate_latency);
  if (!latency.ok() || *latency < 0 || *latency > 1)
    return UsageError("--emulate-latency: expected a duration in [0, 1s], got '" +
                      f.emulate_latency + "'");
  const auto [req_bytes, resp_bytes] = PullFrameBytes(f);
  // --pin auto: with two CPUs or more, each process (with all its threads,
  // the raw ping-pong's included) on a CPU of its own, as two machines
  // would be; otherwise the scheduler places the threads, and a ping-pong
  // whose two ends happen to share a core runs several times faster than
  // one across cores, for augur and the raw reference alike.
  if (f.pin != "auto" && f.pin != "none")
    return UsageError("--pin: expected auto or none, got '" + f.pin + "'");
  const std::vector<int> cpus = AllowedCpus();
  const bool pin = f.pin == "auto" && cpus.size() >= 2;
  char dir[] = "/tmp/augur-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) return RunError("cannot create a temporary directory");
  const std::string secret = std::string(dir) + "/secret";
  if (Status s = tcp::GenerateSecretFile(secret); !s.ok()) return RunError(s.message());
  Result<std::vector<uint8_t>> key = tcp::LoadSecret(secret);
  std::filesystem::remove_all(dir);
  if (!key.ok()) return RunError(key.status().message());

  // Every port is bound before fork, so neither side races the other.
  asio::io_context io;
  const asio::ip::tcp::endpoint any_port(asio::ip::make_address("127.0.0.1"), 0);
  asio::ip::tcp::acceptor raw(io, any_port);
  asio::ip::tcp::acceptor raw64(io, any_port);
  const uint16_t raw_port = raw.local_endpoint().port();
  const uint16_t raw64_port = raw64.local_endpoint().port();
  // Taken over by rank 0, the forked child. A --port in use was found only
  // by rank 1, after its 30 s peer timeout ("rank 0 did not connect").
  Result<tcp::ListeningSocket> listening = tcp::ListenOn("127.0.0.1", f.port);
  if (!listening.ok()) {
    return f.port != 0 ? UsageError("--port " + std::to_string(f.port) + ": " +
                                    listening.status().message())
                       : RunError(listening.status().message());
  }
  tcp::ListeningSocket coordinator = std::move(*listening);
  const uint16_t port = coordinator.port();
  tcp::TcpOptions o;
  o.nodes = 2;
  o.coordinator_port = port;
  o.cluster_id = "bench-net";
  o.secret = *key;
  o.peer_timeout_seconds = 30;
  o.wire_security = *mode;
  o.emulate_latency_seconds = *latency;

  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return RunError("fork failed");
  if (child == 0) {  // rank 0: serves pulls, and the raw ping-pongs on a thread of its own
    if (pin) {
      if (Status p = PinToCpu(cpus[0]); !p.ok()) {
        std::fprintf(stderr, "augur bench-net: server: %s\n", p.message().c_str());
        _exit(1);
      }
    }
    Status raw_status;
    std::thread raw_server([&] {
      raw_status = tcp::ServeRawPingPong(raw, req_bytes, resp_bytes);
      if (raw_status.ok()) raw_status = tcp::ServeRawPingPong(raw64, 64, 64);
    });
    o.rank = 0;
    o.coordinator_listen_fd = coordinator.Release();
    Status s = RunPullNode(f, o, nullptr);
    raw_server.join();
    if (s.ok() && !raw_status.ok()) s = raw_status.WithContext("raw ping-pong server");
    if (!s.ok()) std::fprintf(stderr, "augur bench-net: server: %s\n", s.message().c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    // The node has shut down; a forked child leaves without the parent's
    // exit handlers and destructors.
    _exit(s.ok() ? 0 : 1);
  }
  raw.close();
  raw64.close();
  coordinator = tcp::ListeningSocket();
  if (pin) {
    if (Status p = PinToCpu(cpus[1]); !p.ok()) return Fail(p.message(), child);
  }
  auto raw_client =
      tcp::RawPingPongClient::Connect("127.0.0.1", raw_port, req_bytes, resp_bytes, 30);
  if (!raw_client.ok()) return Fail(raw_client.status().message(), child);
  auto raw64_client = tcp::RawPingPongClient::Connect("127.0.0.1", raw64_port, 64, 64, 30);
  if (!raw64_client.ok()) return Fail(raw64_client.status().message(), child);

  o.rank = 1;
  Timings t;
  Status measured = RunPullNode(
      f, o, [&](Worker& w, Node& node) { return MeasurePulls(f, **raw_client, w, node, &t); });
  if (!measured.ok()) return Fail(measured.message(), child);
  (*raw_client)->Close();
  const uint64_t small_rounds = 20000;
  Result<double> ping64 = (*raw64_client)->Run(1000);
  if (ping64.ok()) ping64 = (*raw64_client)->Run(small_rounds);
  if (!ping64.ok()) return Fail(ping64.status().message(), child);
  (*raw64_client)->Close();
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return RunError("server process failed");

  const double bytes = static_cast<double>(req_bytes + resp_bytes);
  const double pull_rate = f.batches / t.pull_seconds;
  const double raw_rate = f.batches / t.raw_seconds;
  std::sort(t.block_ratios.begin(), t.block_ratios.end());
  std::printf(
      "augur bench-net: 2 processes on loopback, dim %u, batches of %u keys, %llu timed "
      "batches (+%llu warm-up) in %zu blocks alternating with the raw ping-pong; "
      "--wire-security %s, --emulate-latency %s\n",
      f.dim, f.batch, static_cast<unsigned long long>(f.batches),
      static_cast<unsigned long long>(f.warmup), t.block_ratios.size(),
      tcp::WireSecurityName(*mode), f.emulate_latency.c_str());
  if (pin)
    std::printf(
        "  placement: rank 0 (and the raw server) on CPU %d, rank 1 (and the raw client) on "
        "CPU %d\n",
        cpus[0], cpus[1]);
  else
    std::printf("  placement: not pinned (the scheduler's choice)\n");
  std::printf("  bytes per round trip: %zu request + %zu response\n", req_bytes, resp_bytes);
  std::printf("  augur remote pull:  %9.0f batches/s  %11.0f keys/s  %8.1f MB/s\n", pull_rate,
              pull_rate * f.batch, pull_rate * bytes / 1e6);
  std::printf("  raw Asio ping-pong: %9.0f rounds/s   %11.0f keys/s  %8.1f MB/s (same bytes)\n",
              raw_rate, raw_rate * f.batch, raw_rate * bytes / 1e6);
  // The augur pull's round trip, whose emulated part (frames held on
  // receipt) the raw ping-pong never has: bench-fidelity reads this line.
  std::printf("  augur round trip: %.1f us (raw %.1f us)\n", 1e6 / pull_rate, 1e6 / raw_rate);
  // The verdict is the median of the alternating blocks (a block that
  // shared its CPU with something else moves the whole run's ratio, not the
  // median); the whole run's ratio is printed beside it.
  const size_t nb = t.block_ratios.size();
  const double median = nb % 2 == 1 ? t.block_ratios[nb / 2]
                                    : (t.block_ratios[nb / 2 - 1] + t.block_ratios[nb / 2]) / 2;
  std::printf(
      "  ratio (augur / raw): %.2f, the median of %zu alternating blocks (min %.2f, max %.2f; "
      "whole run %.2f)\n",
      median, nb, t.block_ratios.front(), t.block_ratios.back(), pull_rate / raw_rate);
  std::printf("  raw Asio ping-pong, 64 B each way: %.0f round trips/s\n", small_rounds / *ping64);
  return 0;
}

}  // namespace

CommandFn AddBenchNetCommand(CLI::App& root) {
  auto f = std::make_shared<BenchFlags>();
  CLI::App* app = root.add_subcommand(
      "bench-net",
      "Benchmark (not a test): remote pull throughput between 2 augur processes on loopback vs "
      "a raw Asio ping-pong of the same bytes, timed in alternating blocks in the same run");
  app->add_option("--dim", f->dim, "Floats per value")->capture_default_str();
  app->add_option("--batch", f->batch, "Keys per pull")->capture_default_str();
  app->add_option("--batches", f->batches, "Timed pulls (and as many raw round trips)")
      ->capture_default_str();
  app->add_option("--warmup", f->warmup, "Untimed pulls (and raw round trips) first")
      ->capture_default_str();
  app->add_option("--blocks", f->blocks, "Alternating timed blocks of pulls and raw round trips")
      ->capture_default_str();
  app->add_option("--port", f->port, "Coordinator port (default: a free one)");
  app->add_option("--wire-security", f->wire_security,
                  "Frame protection of the augur side: encrypt, auth or none (the raw ping-pong "
                  "is never protected)")
      ->capture_default_str();
  app->add_option("--pin", f->pin,
                  "auto: with 2 CPUs or more, each process on a CPU of its own (both the augur "
                  "and the raw side); none: the scheduler places them")
      ->capture_default_str();
  app->add_option("--emulate-latency", f->emulate_latency,
                  "Hold every received augur frame this long before it is handled (as `augur "
                  "run --emulate-latency`); the raw ping-pong is never delayed")
      ->capture_default_str();
  return [f]() -> int { return BenchNet(*f); };
}

}  // namespace augur

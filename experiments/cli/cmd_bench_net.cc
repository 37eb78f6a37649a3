// `augur bench-net`: remote pull throughput of the TCP backend between two
// processes on loopback, next to a raw Asio ping-pong of the same bytes
// measured in the same run (DESIGN.md §5: compare against a reference).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

#include "backends/tcp/handshake.h"
#include "backends/tcp/raw_ping_pong.h"
#include "backends/tcp/tcp_runtime.h"
#include "core/codec/codec.h"
#include "experiments/cli/command.h"

namespace augur {

namespace {

struct BenchFlags {
  uint32_t dim = 100;
  uint32_t batch = 256;
  uint64_t batches = 2000;
  uint64_t warmup = 200;
  uint16_t port = 0;
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

// One node of the 2-node cluster. Rank 1 pulls batches of keys homed at rank 0
// and returns the timed seconds; rank 0 only serves.
Result<double> RunPullNode(const BenchFlags& f, tcp::TcpOptions o) {
  auto runtime = std::make_unique<tcp::TcpRuntime>(o);
  NodeOptions no;
  no.workers = 1;
  no.layout = ValueLayout(f.dim);
  auto node = std::make_unique<Node>(no, *runtime);
  Status s = runtime->Start(node.get());
  double seconds = 0;
  if (s.ok()) {
    std::thread worker([&] {
      Worker& w = node->worker(0);
      if (o.rank == 1) {
        std::vector<Key> keys;
        for (Key k = 0; keys.size() < f.batch; ++k)
          if (node->HomeOf(k) == 0) keys.push_back(k);
        std::vector<float> out(w.TotalLength(keys));
        std::chrono::steady_clock::time_point start;
        for (uint64_t i = 0; i < f.warmup + f.batches; ++i) {
          if (i == f.warmup) start = std::chrono::steady_clock::now();
          w.Wait(w.Pull(keys, out));
        }
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      w.Barrier();
    });
    worker.join();
    s = runtime->Finish();
  }
  runtime.reset();
  if (!s.ok()) return s;
  return seconds;
}

int BenchNet(const BenchFlags& f) {
  if (f.dim == 0 || f.batch == 0 || f.batches == 0) {
    return UsageError("--dim, --batch and --batches must be at least 1");
  }
  const auto [req_bytes, resp_bytes] = PullFrameBytes(f);
  char dir[] = "/tmp/augur-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) return RunError("cannot create a temporary directory");
  const std::string secret = std::string(dir) + "/secret";
  if (Status s = tcp::GenerateSecretFile(secret); !s.ok()) return RunError(s.message());
  Result<std::vector<uint8_t>> key = tcp::LoadSecret(secret);
  std::filesystem::remove_all(dir);
  if (!key.ok()) return RunError(key.status().message());

  // Both ports are bound before fork, so neither side races the other.
  asio::io_context io;
  asio::ip::tcp::acceptor raw(io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  asio::ip::tcp::acceptor raw64(io,
                                asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const uint16_t raw_port = raw.local_endpoint().port();
  const uint16_t raw64_port = raw64.local_endpoint().port();
  uint16_t port = f.port;
  if (port == 0) {
    asio::ip::tcp::acceptor probe(io,
                                  asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    port = probe.local_endpoint().port();
  }
  tcp::TcpOptions o;
  o.nodes = 2;
  o.coordinator_port = port;
  o.cluster_id = "bench-net";
  o.secret = *key;
  o.peer_timeout_seconds = 30;

  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return RunError("fork failed");
  if (child == 0) {  // rank 0: serves pulls, then the raw ping-pongs
    o.rank = 0;
    Result<double> r = RunPullNode(f, o);
    Status s = r.ok() ? tcp::ServeRawPingPong(raw, req_bytes, resp_bytes) : r.status();
    if (s.ok()) s = tcp::ServeRawPingPong(raw64, 64, 64);
    if (!s.ok()) std::fprintf(stderr, "augur bench-net: server: %s\n", s.message().c_str());
    std::fflush(stderr);
    _exit(s.ok() ? 0 : 1);
  }
  raw.close();
  raw64.close();
  o.rank = 1;
  Result<double> pull = RunPullNode(f, o);
  Result<double> ping = pull.ok() ? tcp::RunRawPingPong("127.0.0.1", raw_port, req_bytes,
                                                        resp_bytes, f.warmup, f.batches, 30)
                                  : pull.status();
  const uint64_t small_rounds = 20000;
  Result<double> ping64 =
      ping.ok() ? tcp::RunRawPingPong("127.0.0.1", raw64_port, 64, 64, 1000, small_rounds, 30)
                : ping.status();
  int status = 0;
  waitpid(child, &status, 0);
  if (!ping64.ok()) return RunError(ping64.status().message());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return RunError("server process failed");

  const double bytes = static_cast<double>(req_bytes + resp_bytes);
  const double pull_rate = f.batches / *pull;
  const double raw_rate = f.batches / *ping;
  std::printf(
      "augur bench-net: 2 processes on loopback, dim %u, batches of %u keys, %llu timed "
      "batches (+%llu warm-up)\n",
      f.dim, f.batch, static_cast<unsigned long long>(f.batches),
      static_cast<unsigned long long>(f.warmup));
  std::printf("  bytes per round trip: %zu request + %zu response\n", req_bytes, resp_bytes);
  std::printf("  augur remote pull:  %9.0f batches/s  %11.0f keys/s  %8.1f MB/s\n", pull_rate,
              pull_rate * f.batch, pull_rate * bytes / 1e6);
  std::printf("  raw Asio ping-pong: %9.0f rounds/s   %11.0f keys/s  %8.1f MB/s (same bytes)\n",
              raw_rate, raw_rate * f.batch, raw_rate * bytes / 1e6);
  std::printf("  ratio (augur / raw): %.2f\n", pull_rate / raw_rate);
  std::printf("  raw Asio ping-pong, 64 B each way: %.0f round trips/s\n", small_rounds / *ping64);
  return 0;
}

}  // namespace

CommandFn AddBenchNetCommand(CLI::App& root) {
  auto f = std::make_shared<BenchFlags>();
  CLI::App* app = root.add_subcommand(
      "bench-net",
      "Benchmark (not a test): remote pull throughput between 2 augur processes on loopback vs "
      "a raw Asio ping-pong of the same bytes in the same run");
  app->add_option("--dim", f->dim, "Floats per value")->capture_default_str();
  app->add_option("--batch", f->batch, "Keys per pull")->capture_default_str();
  app->add_option("--batches", f->batches, "Timed pulls (and raw round trips)")
      ->capture_default_str();
  app->add_option("--warmup", f->warmup, "Untimed pulls first")->capture_default_str();
  app->add_option("--port", f->port, "Coordinator port (default: a free one)");
  return [f]() -> int { return BenchNet(*f); };
}

}  // namespace augur

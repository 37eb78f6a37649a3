#include "experiments/drivers/tcp_driver.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "backends/tcp/tcp_runtime.h"
#include "backends/tcp/tcp_transport.h"

namespace augur {

Result<RunResult> RunOnTcp(const RunConfig& /*config*/, const tcp::TcpOptions& options, Job& job) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto runtime = std::make_unique<tcp::TcpRuntime>(options);
  auto node = std::make_unique<Node>(job.MakeNodeOptions(), *runtime);
  if (Status s = runtime->Start(node.get()); !s.ok()) {
    runtime.reset();  // stops the I/O thread before the node goes away
    return s;
  }
  const std::string io_slice = runtime->transport().io_slice_status();

  std::atomic<uint32_t> done{0};
  std::vector<std::thread> threads;
  for (WorkerId w = 0; w < node->num_workers(); ++w) {
    threads.emplace_back([&, w] {
      job.RunWorker(node->worker(w));
      done.fetch_add(1);
      runtime->transport().Notify();
    });
  }
  const uint32_t workers = node->num_workers();
  Status s = runtime->transport().WaitFor([&] { return done.load() == workers; });
  if (!s.ok()) {
    // A lost peer: nothing reaches the node any more, every worker's waits
    // end with an error so the job stops its loop, and the node shuts down
    // normally; `augur run` prints the error as its one line.
    runtime->Abandon();
    for (std::thread& t : threads) t.join();
    runtime.reset();  // stops the I/O thread before the node goes away
    return s;
  }
  for (std::thread& t : threads) t.join();
  if (job.failed()) {
    // No goodbye: the peers see this node gone (lost rank), as after a crash,
    // but this process ends normally with the job's error as its one line.
    runtime->Abandon();
    runtime.reset();
    return job.failure();
  }
  // A diverged process may be alone in stopping (each process judges its own
  // workers): a peer still training waits for it at its next barrier and
  // will not say goodbye. It waits for the goodbyes as long as a peer may be
  // silent (--peer-timeout), then leaves; that peer then stops with `lost
  // rank`, and this process reports its divergence.
  const bool stopped_early = job.StoppedEarly();
  s = stopped_early ? runtime->Finish(runtime->transport().options().peer_timeout_seconds)
                    : runtime->Finish();
  runtime.reset();  // stops the I/O thread before the node goes away
  if (!s.ok() && !stopped_early) return s;

  RunResult r;
  r.backend = "tcp";
  job.Report(&r);
  r.extra["io_slice"] = io_slice;
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace augur

#include "experiments/drivers/loopback_driver.h"

#include <chrono>

#include "backends/loopback/loopback_cluster.h"

namespace augur {

Result<RunResult> RunOnLoopback(const RunConfig& config, Job& job) {
  const auto wall_start = std::chrono::steady_clock::now();
  LoopbackOptions options;
  options.nodes = config.nodes;
  options.node = job.MakeNodeOptions();
  options.network = config.network;
  LoopbackCluster cluster(options);
  Status s = cluster.Run([&job](Worker& w) { job.RunWorker(w); });
  if (!s.ok()) return s;
  if (job.failed()) return job.failure();
  RunResult r;
  r.backend = "loopback";
  job.Report(&r);
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace augur

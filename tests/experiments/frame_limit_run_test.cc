// A zipf --verify run on the loopback cluster with the smallest frame limit
// (1024 bytes, as --max-frame-bytes): every sync round, refresh, grant and
// pull answer larger than a frame is split by keys, and the run still finds
// every key's exact sum. The cluster stops on any frame above the limit.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "backends/loopback/loopback_cluster.h"
#include "experiments/config/run_config.h"
#include "experiments/jobs/job.h"

namespace augur {
namespace {

TEST_CASE("a zipf run with 1 KiB frames verifies under every policy", "[protocol][split]") {
  const std::string policy = GENERATE(from_range(
      std::vector<std::string>{"classic", "relocate", "nups", "adaptive", "replicate-all"}));
  INFO("policy " << policy);
  RunConfig c;
  c.nodes = 3;
  c.workers = 2;
  c.epochs = 1;
  c.verify = true;
  c.policy = policy;
  c.pattern = "mixed";
  c.seed = 7;
  c.zipf.keys = 3000;
  c.zipf.dim = 8;
  c.zipf.batch_size = 64;  // a pull answer of 64 keys is ~3 KB
  c.zipf.batches_per_epoch = 12;
  REQUIRE(c.Validate().ok());
  Result<std::unique_ptr<Job>> job = MakeJob(c);
  REQUIRE(job.ok());
  LoopbackOptions o;
  o.nodes = c.nodes;
  o.node = (*job)->MakeNodeOptions();
  o.network = c.network;
  o.max_frame_bytes = 1024;
  LoopbackCluster cluster(o);
  REQUIRE(cluster.Run([&](Worker& w) { (*job)->RunWorker(w); }).ok());
  RunResult r;
  (*job)->Report(&r);
  INFO(r.verify_detail);
  REQUIRE(r.verified.has_value());
  CHECK(*r.verified);
  if (policy == "replicate-all") {  // each round flushes more keys than a frame holds
    const MetricsSnapshot m = cluster.node(1).Metrics();
    CHECK((m[NodeCounter::kReplicaSyncs] + m[NodeCounter::kReplicaPolls]) * 12 >
          1024 * m[NodeCounter::kSyncRounds]);
  }
}

}  // namespace
}  // namespace augur

#include "experiments/calibration/cost_calibration.h"

#include <time.h>

#include <algorithm>

#include "core/codec/codec.h"
#include "core/protocol/home.h"
#include "core/protocol/node.h"
#include "core/testing/loopback_cluster.h"
#include "experiments/drivers/loopback_driver.h"
#include "experiments/jobs/job.h"
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
  double Now() override { return 0; }
  void Compute(double) override {}
  void SetTimer(double, uint64_t) override {}
  std::unique_ptr<Mutex> NewMutex() override { return std::make_unique<NoLock>(); }
  std::unique_ptr<Parker> NewParker() override { return std::make_unique<NoPark>(); }
};

Result<double> SecondsPerKey(const RunConfig& base) {
  RunConfig c = base;
  c.nodes = 1;
  c.workers = 1;
  c.epochs = 1;
  c.verify = false;
  c.zipf.compute_seconds_per_key = 0;
  c.zipf.batches_per_epoch = std::max<uint32_t>(c.zipf.batches_per_epoch, 2000);
  if (Status s = c.Validate(); !s.ok()) return s;
  Result<std::unique_ptr<Job>> job = MakeJob(c);
  if (!job.ok()) return job.status();
  const double start = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
  Result<RunResult> r = RunOnLoopback(c, **job);
  const double cpu = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - start;
  if (!r.ok()) return r.status();
  return cpu / static_cast<double>(r->samples);
}

struct Sample {
  double bytes;
  double seconds;
};

// Mean CPU seconds of OnMessage over pull and push requests of `keys` keys.
Result<Sample> MeasureHandler(Node& node, uint32_t keys, uint32_t dim) {
  constexpr int kIterations = 4000;
  Message pull, push;
  pull.type = MessageType::kPullRequest;
  push.type = MessageType::kPushRequest;
  pull.op_id = push.op_id = 1;
  pull.src = pull.origin = push.src = push.origin = 0;
  for (Key k = 1; pull.keys.size() < keys; ++k) {
    if (HomeNode(k, 2) != 1) continue;
    const uint32_t i = static_cast<uint32_t>(pull.keys.size());
    pull.keys.push_back(k);
    pull.slots.push_back(i * dim);
    push.keys.push_back(k);
  }
  push.values.assign(size_t{keys} * dim, 0.5f);
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

}  // namespace

Result<SimCosts> CalibrateCosts(const RunConfig& config) {
  SimCosts costs;
  costs.workload = config.workload;
  costs.machine = MachineDescription();
  costs.git_commit = GitCommit();
  Result<double> per_key = SecondsPerKey(config);
  if (!per_key.ok()) return per_key.status().WithContext("per-key cost");
  costs.seconds_per_key = *per_key;

  NullRuntime runtime;
  NodeOptions o;
  o.workers = 1;
  o.layout = ValueLayout(config.zipf.dim);
  Node node(o, runtime);
  Result<Sample> small = MeasureHandler(node, 8, config.zipf.dim);
  if (!small.ok()) return small.status();
  Result<Sample> large = MeasureHandler(node, 256, config.zipf.dim);
  if (!large.ok()) return large.status();
  const double per_byte =
      std::max(0.0, (large->seconds - small->seconds) / (large->bytes - small->bytes));
  costs.seconds_per_message_byte = per_byte;
  costs.seconds_per_message = std::max(0.0, small->seconds - per_byte * small->bytes);
  return costs;
}

}  // namespace augur

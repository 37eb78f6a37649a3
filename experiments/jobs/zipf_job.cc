#include "experiments/jobs/zipf_job.h"

#include <algorithm>

#include "core/base/check.h"
#include "experiments/jobs/management_options.h"

namespace augur {

ZipfJob::ZipfJob(const RunConfig& config)
    : config_(config),
      workload_(config.zipf, config.nodes, config.workers),
      node_metrics_(config.nodes) {}

NodeOptions ZipfJob::MakeNodeOptions() const {
  NodeOptions o;
  o.workers = config_.workers;
  o.layout = workload_.layout();
  o.init = nullptr;  // zeros: the verify sums start from 0
  // Default hot set: 0.1% of the keys (the mixed pattern's hot set).
  const uint64_t hot = std::max<uint64_t>(1, config_.zipf.keys / 1000);
  Status s = ConfigureManagement(
      config_, workload_.HotKeys(config_.replicate ? config_.replicate : hot), &o);
  AUGUR_CHECK(s.ok(), "%s", s.message().c_str());  // the config was validated
  return o;
}

void ZipfJob::RunWorker(Worker& w) {
  workload_.RunWorker(w, (w.node_id() == 0 && w.id() == 0) ? &log_ : nullptr);
  const ZipfOptions& z = workload_.options();
  samples_.fetch_add(uint64_t{z.epochs} * z.batches_per_epoch * z.batch_size);
  // The workload ended with a barrier: every node's training traffic is done.
  if (w.id() == 0) node_metrics_[w.node_id()] = w.NodeMetrics();
  if (!z.verify) return;
  w.Barrier();  // nobody verifies before every node took its snapshot
  // Flush every replica delta, then refresh the replicas once more: after
  // that every copy a verifying pull may read holds every push.
  if (w.id() == 0) w.WaitSync();
  w.Barrier();
  if (w.id() == 0) w.WaitSync();
  if (w.id() == 0) {
    std::string detail;
    const uint64_t bad = workload_.VerifyNode(w, &detail);
    if (bad > 0) {
      mismatches_.fetch_add(bad);
      if (!mismatch_claimed_.exchange(true)) first_mismatch_ = detail;
    }
    nodes_verified_.fetch_add(1);
  }
  w.Barrier();
}

void ZipfJob::Report(RunResult* result) const {
  result->epoch_seconds = log_.epoch_seconds;
  result->total_seconds = 0;
  for (double s : log_.epoch_seconds) result->total_seconds += s;
  result->samples = samples_.load();
  for (const auto& m : node_metrics_) {
    if (!m.has_value()) continue;  // a node hosted by another process
    result->per_node.push_back(*m);
    result->totals += *m;
  }
  if (workload_.options().verify) {
    result->verified = nodes_verified_.load() > 0 && mismatches_.load() == 0;
    if (mismatches_.load() > 0) {
      result->verify_detail =
          std::to_string(mismatches_.load()) + " keys wrong; first: " + first_mismatch_;
    }
  }
}

}  // namespace augur

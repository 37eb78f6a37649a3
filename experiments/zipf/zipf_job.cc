#include "experiments/zipf/zipf_job.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "core/base/check.h"
#include "core/protocol/home.h"
#include "experiments/jobs/job_checkpoint.h"
#include "experiments/jobs/management_options.h"

namespace augur {

namespace {

constexpr size_t kChunkKeys = 1024;

}  // namespace

Result<std::unique_ptr<Job>> ZipfJob::Create(const RunConfig& config) {
  if (config.resume_dir.empty()) return std::unique_ptr<Job>(std::make_unique<ZipfJob>(config));
  Result<LoadedCheckpoint> ck = LoadResumeCheckpoint(config, Fingerprint(config));
  if (!ck.ok()) return ck.status();
  const std::string where = "--resume: checkpoint " + ck->path;
  std::unordered_set<Key> seen;
  for (const CheckpointRow& r : ck->rows) {
    if (r.floats.size() != config.zipf.dim)
      return Status::Error(where + ": key " + std::to_string(r.key) + " has " +
                           std::to_string(r.floats.size()) + " floats, --dim is " +
                           std::to_string(config.zipf.dim));
    if (!seen.insert(r.key).second)
      return Status::Error(where + ": key " + std::to_string(r.key) + " is in two node files");
  }
  return std::unique_ptr<Job>(std::make_unique<ZipfJob>(config, std::move(*ck)));
}

ZipfOptions ZipfJob::Options(const RunConfig& config, const std::optional<LoadedCheckpoint>& ck) {
  ZipfOptions z = config.zipf;
  if (ck.has_value()) {
    z.start_epoch = ck->manifest.epoch;
    z.prior_nodes = ck->manifest.nodes;
    z.prior_workers = ck->manifest.workers;
  }
  return z;
}

ZipfJob::ZipfJob(const RunConfig& config, std::optional<LoadedCheckpoint> resume)
    : config_(config),
      workload_(Options(config, resume), config.nodes, config.workers),
      resume_(std::move(resume)),
      epoch_costs_(config.nodes),
      node_metrics_(config.nodes) {}

nlohmann::json ZipfJob::Fingerprint(const RunConfig& config) {
  const ZipfOptions& z = config.zipf;
  return {{"keys", z.keys},
          {"dim", z.dim},
          {"batch_size", z.batch_size},
          {"batches_per_epoch", z.batches_per_epoch},
          {"pattern", config.pattern},
          {"skew", z.skew},
          {"seed", config.seed},
          {"verify", z.verify},
          {"optimizer", "sum"}};
}
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

void ZipfJob::Restore(Worker& w) {
  if (w.id() == 0) {
    const uint32_t dim = config_.zipf.dim;
    std::vector<Key> keys;
    std::vector<float> values;
    auto flush = [&] {
      if (!keys.empty()) w.Wait(w.Set(keys, values));
      keys.clear();
      values.clear();
    };
    for (const CheckpointRow& r : resume_->rows) {
      if (HomeNode(r.key, w.num_nodes()) != w.node_id()) continue;
      keys.push_back(r.key);
      values.insert(values.end(), r.floats.begin(), r.floats.begin() + dim);
      if (keys.size() == kChunkKeys) flush();
    }
    flush();
  }
  w.Barrier();  // every node restored its keys before anyone trains
}

void ZipfJob::Checkpoint(Worker& w, uint32_t epochs_done) {
  // The keys homed at this node that any batch so far accessed, pulled
  // through the API: a key in transfer between nodes is waited for, never missed.
  auto pull_rows = [this](Worker& worker, std::vector<CheckpointRow>* rows) {
    const Clock now = workload_.StartClock() + worker.clock();
    std::vector<Key> mine;
    for (Key k : workload_.KeysAccessedBefore(now))
      if (HomeNode(k, worker.num_nodes()) == worker.node_id()) mine.push_back(k);
    const uint32_t dim = config_.zipf.dim;
    rows->reserve(mine.size());
    std::vector<float> values;
    for (size_t at = 0; at < mine.size(); at += kChunkKeys) {
      std::span<const Key> chunk(mine.data() + at, std::min(kChunkKeys, mine.size() - at));
      values.assign(chunk.size() * dim, 0);
      if (Status s = worker.Wait(worker.Pull(chunk, values)); !s.ok()) return s;
      for (size_t i = 0; i < chunk.size(); ++i)
        rows->push_back({chunk[i], std::vector<float>(values.begin() + i * dim,
                                                      values.begin() + (i + 1) * dim)});
    }
    return Status::Ok();
  };
  const nlohmann::json fingerprint = Fingerprint(config_);
  const CheckpointPoint at{epochs_done, static_cast<uint64_t>(workload_.StartClock() + w.clock()),
                           fingerprint};
  WriteCheckpoint(w, *this, config_, at, CheckpointRead::kPulls, pull_rows);
}

void ZipfJob::RunWorker(Worker& w) {
  if (resume_.has_value()) Restore(w);
  // What the node spends per epoch (where its runtime can tell).
  const bool records_costs = EpochCosts::Records(w);
  EpochCosts& costs = epoch_costs_[w.node_id()];
  ZipfWorkload::EpochEnd on_epoch_end;
  if (config_.checkpoint_every > 0 || records_costs) {
    on_epoch_end = [this, records_costs, &costs](Worker& worker, uint32_t epochs_done) {
      if (records_costs) costs.End(worker);
      if (config_.checkpoint_every > 0 && epochs_done % config_.checkpoint_every == 0)
        Checkpoint(worker, epochs_done);
      if (records_costs) costs.Begin(worker);  // a checkpoint is not training
      return !failed();
    };
  }
  if (records_costs) costs.Begin(w);
  workload_.RunWorker(w, (w.node_id() == 0 && w.id() == 0) ? &log_ : nullptr, on_epoch_end);
  // The node is shutting down, or the run failed: no report follows.
  if (w.cancelled() || failed()) return;
  const ZipfOptions& z = workload_.options();
  samples_.fetch_add(uint64_t{z.epochs - z.start_epoch} * z.batches_per_epoch * z.batch_size);
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
  epoch_costs_.Report(&*result->extra);
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

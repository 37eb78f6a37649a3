#include "experiments/jobs/job_checkpoint.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "core/base/format_number.h"
#include "core/protocol/home.h"

namespace augur {

namespace {

// A flag's value as a user writes it: --lr 0.05, not the float's 0.05000000074505806.
std::string FlagValue(const nlohmann::json& v) {
  return v.is_number_float() ? FormatNumber(v.get<double>()) : v.dump();
}

}  // namespace

Result<LoadedCheckpoint> LoadResumeCheckpoint(const RunConfig& config,
                                              const nlohmann::json& fingerprint) {
  Result<LoadedCheckpoint> ck = LoadCheckpoint(config.resume_dir);
  if (!ck.ok()) return ck.status().WithContext("--resume");
  const CheckpointManifest& m = ck->manifest;
  const std::string where = "--resume: checkpoint " + ck->path;
  if (m.workload != config.workload)
    return Status::Error(where + " is of workload '" + m.workload + "', not '" + config.workload +
                         "'");
  if (m.epoch >= config.epochs)
    return Status::Error(where + " was taken after epoch " + std::to_string(m.epoch) +
                         "; --epochs (the total) must be larger");
  for (const auto& [name, value] : fingerprint.items()) {
    const bool has = m.fingerprint->contains(name);
    if (has && m.fingerprint[name] == value) continue;
    if (name.rfind("--", 0) == 0)  // a training flag (BatchJob::Fingerprint)
      return Status::Error(where +
                           (has ? " was written with " + name + " " + FlagValue(m.fingerprint[name])
                                : " does not record its " + name + " (written by an older augur)") +
                           ", this run has " + FlagValue(value) + ": resume with the same " + name);
    return Status::Error(where + " has " + name + " = " +
                         (has ? m.fingerprint[name].dump() : "none") + ", this run " +
                         value.dump() +
                         (name == "data_digest" ? " (the training data differ)" : ""));
  }
  return ck;
}

Status CheckRowShapes(const LoadedCheckpoint& ck, const ValueLayout& layout,
                      const OptimizerConfig& optimizer) {
  const std::string where = "--resume: checkpoint " + ck.path;
  std::unordered_set<Key> seen;
  for (const CheckpointRow& r : ck.rows) {
    const size_t want = size_t{layout.Length(r.key)} * (1 + optimizer.StateRows());
    if (r.floats.size() != want)
      return Status::Error(where + ": key " + std::to_string(r.key) + " has " +
                           std::to_string(r.floats.size()) + " floats, this model " +
                           std::to_string(want) + " (value and optimizer state)");
    if (!seen.insert(r.key).second)
      return Status::Error(where + ": key " + std::to_string(r.key) + " is in two node files");
  }
  return Status::Ok();
}

void WriteCheckpoint(Worker& w, Job& job, const RunConfig& config, const CheckpointPoint& at,
                     CheckpointRead read, const CollectRows& collect) {
  const std::string& dir = config.checkpoint_dir;
  const bool lead = w.node_id() == 0 && w.id() == 0;
  const bool main_copies = read == CheckpointRead::kMainCopies;
  Status failed;  // this worker's own step; the later steps are skipped once it fails
  if (lead) failed = PrepareCheckpoint(dir, at.epochs_done);
  // A cancelled worker (the node is shutting down) writes nothing.
  if (!w.Barrier().ok()) return;  // the temp dir exists; every push of the epoch is applied
  if (w.id() == 0) {
    if (main_copies)
      w.PauseActions(true);
    else
      w.WaitSync();  // replica deltas reach their main copies
  }
  if (!w.Barrier().ok()) return;  // no node starts moving a key any more (kMainCopies)
  if (w.id() == 0) {
    if (main_copies) {
      w.WaitSync();             // replica deltas reach their main copies
      w.WaitNothingIncoming();  // moves already started have landed
    } else {
      w.WaitSync();  // replicas refreshed: a local read sees every push
    }
  }
  if (!w.Barrier().ok()) return;  // the rows to read hold every push of the epochs done
  if (w.id() == 0 && failed.ok()) {
    std::vector<CheckpointRow> rows;
    if (!collect(w, &rows).ok()) return;
    failed = WriteNodeCheckpoint(dir, at.epochs_done, w.node_id(), rows);
  }
  if (!w.Barrier().ok()) return;  // every node's part is durable
  // A part missing (its node failed) fails the commit: nothing is published.
  if (lead && failed.ok())
    failed = CommitRunCheckpoint(w, dir, config, at.epochs_done, at.clock, at.fingerprint);
  if (w.id() == 0 && main_copies) w.PauseActions(false);
  // Recorded before the barrier: after it, every worker of this process sees it.
  if (!failed.ok()) job.Fail(failed.WithContext("checkpoint failed"));
  w.Barrier();  // the checkpoint is published before training goes on
}

void WriteRowCheckpoint(Worker& w, Job& job, const RunConfig& config, uint32_t epochs_done,
                        uint64_t clock, const nlohmann::json& fingerprint) {
  auto copy_main_rows = [](Worker& worker, std::vector<CheckpointRow>* rows) {
    std::vector<Key> keys;
    std::vector<std::vector<float>> floats;
    worker.CopyMainRows(&keys, &floats);
    rows->resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) (*rows)[i] = {keys[i], std::move(floats[i])};
    std::sort(rows->begin(), rows->end(),
              [](const CheckpointRow& a, const CheckpointRow& b) { return a.key < b.key; });
    return Status::Ok();
  };
  WriteCheckpoint(w, job, config, {epochs_done, clock, fingerprint}, CheckpointRead::kMainCopies,
                  copy_main_rows);
}

void RestoreRows(Worker& w, const LoadedCheckpoint& ck) {
  if (w.id() == 0) {
    std::vector<Key> keys;
    std::vector<float> floats;
    for (const CheckpointRow& r : ck.rows) {
      if (HomeNode(r.key, w.num_nodes()) != w.node_id()) continue;
      keys.push_back(r.key);
      floats.insert(floats.end(), r.floats.begin(), r.floats.end());
    }
    w.InstallMainRows(keys, floats);
  }
  w.Barrier();  // every node restored its keys before anyone trains
}

Status CommitRunCheckpoint(Worker& w, const std::string& dir, const RunConfig& config,
                           uint32_t epochs_done, uint64_t clock,
                           const nlohmann::json& fingerprint) {
  CheckpointManifest m;
  m.nodes = w.num_nodes();
  m.workers = config.workers;
  m.epoch = epochs_done;
  m.clock = clock;
  m.taken_at_seconds = w.Now();
  m.workload = config.workload;
  m.fingerprint = fingerprint;
  return CommitCheckpoint(dir, m);
}

}  // namespace augur

#include "experiments/jobs/batch_job.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "core/base/check.h"
#include "experiments/jobs/job_checkpoint.h"
#include "experiments/jobs/management_options.h"
#include "experiments/jobs/quality_floor.h"
#include "experiments/partition/work_split.h"

namespace augur {

BatchJob::BatchJob(const RunConfig& config) : config_(config) {}

BatchJob::~BatchJob() = default;

void BatchJob::Partition(const ItemKeys& items) {
  const uint32_t parts = config_.nodes * config_.workers;
  const std::string method =
      ResolvePartition(config_.partition, config_.workload, config_.nodes, config_.sampling);
  Result<std::vector<std::vector<uint32_t>>> split =
      SplitWork(items, parts, method, config_.seed, config_.workers);
  AUGUR_CHECK(split.ok(), "%s", split.status().message().c_str());  // the config was validated
  items_of_ = std::move(*split);
  data_digest_ = 0x5EED;
  for (size_t i = 0; i < items.size(); ++i) {
    data_digest_ = Mix64(data_digest_ ^ items.end[i]);
    for (uint64_t k = items.begin(i); k < items.end[i]; ++k)
      data_digest_ = Mix64(data_digest_ ^ items.keys[k]);
  }
  intent_runs_.assign(parts, IntentRuns());
  std::vector<uint32_t> part(items.size(), 0);
  for (uint32_t g = 0; g < parts; ++g)
    for (uint32_t i : items_of_[g]) part[i] = g;
  std::vector<uint32_t> node_of(part.size());
  for (size_t i = 0; i < part.size(); ++i) node_of[i] = part[i] / config_.workers;
  partition_info_ = {method, AccessLocality(items, part, parts),
                     AccessLocality(items, node_of, config_.nodes)};
  stats_.assign(parts, std::vector<BatchStats>(config_.epochs));
  node_metrics_.assign(config_.nodes, std::nullopt);
  epoch_costs_ = EpochCostsByNode(config_.nodes);
  FindHotKeys(static_cast<uint32_t>(part.size()));
}

void BatchJob::FindHotKeys(uint32_t num_items) {
  std::unordered_map<Key, uint64_t> count;
  std::vector<Key> keys;
  for (uint32_t i = 0; i < num_items; ++i) {
    keys.clear();
    IntentKeys(std::span<const uint32_t>(&i, 1), 0, &keys);
    for (Key k : keys) ++count[k];
  }
  std::vector<std::pair<uint64_t, Key>> order;
  order.reserve(count.size());
  for (const auto& [k, n] : count) order.emplace_back(n, k);
  // Most accessed first; ties by key so the set is deterministic.
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  const size_t hot = std::max<size_t>(1, order.size() / 1000);  // 0.1%, as the zipf workload
  for (size_t i = 0; i < std::min(hot, order.size()); ++i) hot_keys_.push_back(order[i].second);
}

NodeOptions BatchJob::MakeNodeOptions() const {
  NodeOptions o;
  o.workers = config_.workers;
  o.layout = Layout();
  o.optimizer = Optimizer();
  o.init = [this](Key key, std::span<float> value) { InitRow(key, value); };
  const Status s = ConfigureManagement(config_, hot_keys_, &o);
  AUGUR_CHECK(s.ok(), "%s", s.message().c_str());  // the config was validated
  if (std::function<Key(Rng&)> draw = NegativeDistribution()) {
    Result<SampleScheme> scheme = ParseSampleScheme(config_.sampling);
    AUGUR_CHECK(scheme.ok(), "%s", scheme.status().message().c_str());  // validated
    o.sampling.scheme = *scheme;
    o.sampling.reuse = config_.reuse;
    o.sampling.prefetch_lead = config_.prefetch_lead;
    o.sampling.draw = std::move(draw);  // each worker's sampler counts its draws
  }
  return o;
}

Clock BatchJob::BatchesPerEpoch(uint32_t g) const {
  const uint64_t b = BatchSize();
  return static_cast<Clock>((items_of_[g].size() + b - 1) / b);
}

nlohmann::json BatchJob::Fingerprint() const {
  size_t items = 0;
  for (const auto& mine : items_of_) items += mine.size();
  // The data by what it is, not by how it was named: the absolute path (the
  // same directory given relatively and absolutely is one data set) and a
  // digest of every training item's keys (another data set imported into
  // the same directory, of the same size, is not).
  std::error_code ec;
  const std::filesystem::path dir = config_.data_dir.empty()
                                        ? std::filesystem::path()
                                        : std::filesystem::weakly_canonical(config_.data_dir, ec);
  nlohmann::json j = {{"data_dir", ec ? config_.data_dir : dir.string()},
                      {"data_digest", data_digest_},
                      {"train_items", items},
                      {"seed", config_.seed},
                      {"optimizer", OptimizerKindName(Optimizer().kind)},
                      {"row_length", RowLength()}};
  // The hyper-parameters that change what is trained, by the flag that sets
  // them: a resumed run with another --lr continued silently on other terms.
  // (A float is recorded as the double it converts to, exactly.)
  if (config_.workload == "kge") {
    const KgeOptions& o = config_.kge;
    j.update({{"--dim", o.dim},
              {"--negatives", o.negatives},
              {"--batch-size", o.batch_size},
              {"--lr", o.learning_rate}});
  } else if (config_.workload == "wv") {
    const WvOptions& o = config_.wv;
    j.update({{"--dim", o.dim},
              {"--negatives", o.negatives},
              {"--window", o.window},
              {"--batch-size", o.batch_size},
              {"--lr", o.learning_rate},
              {"--min-count", o.min_count},
              {"--subsample", o.subsample}});
  } else if (config_.workload == "mf") {
    const MfOptions& o = config_.mf;
    j.update({{"--dim", o.rank},
              {"--batch-size", o.batch_size},
              {"--lr", o.learning_rate},
              {"--reg", o.reg}});
  }
  return j;
}

Status BatchJob::LoadResume() {
  if (config_.resume_dir.empty()) return Status::Ok();
  Result<LoadedCheckpoint> ck = LoadResumeCheckpoint(config_, Fingerprint());
  if (!ck.ok()) return ck.status();
  if (Status s = CheckRowShapes(*ck, Layout(), Optimizer()); !s.ok()) return s;
  resume_ = std::move(*ck);
  return Status::Ok();
}

void BatchJob::Signal(Worker& w, uint32_t g, Clock c, Clock local, IntentScratch* scratch,
                      std::deque<Pending>* pending) const {
  const std::vector<uint32_t>& mine = items_of_[g];
  const uint64_t b = BatchSize();
  const Clock per_epoch = BatchesPerEpoch(g);
  if (per_epoch == 0 || c >= per_epoch * config_.epochs) return;
  const uint64_t begin = static_cast<uint64_t>(c % per_epoch) * b;
  const uint64_t n = std::min<uint64_t>(b, mine.size() - begin);
  const std::span<const uint32_t> items(mine.data() + begin, n);
  const auto epoch = static_cast<uint32_t>(c / per_epoch);
  const IntentRuns& runs = intent_runs_[g];
  if (!runs.runs().empty()) {
    const auto i = static_cast<uint32_t>(c % per_epoch);
    std::vector<IntentSignal>& signals = scratch->signals;
    signals.clear();
    for (const IntentRun& run : runs.RunsStartingAt(i))
      signals.push_back(IntentSignal{run.keys, local, local + (run.end - i)});
    w.Intents(signals);
  } else if (config_.zipf.lookahead > 0 && w.UsesIntent()) {
    // Each key once, in first-seen order (no sort: the table needs no order).
    scratch->all.clear();
    scratch->distinct.clear();
    scratch->seen.Clear();
    IntentKeys(items, epoch, &scratch->all);
    for (Key k : scratch->all)
      if (scratch->seen.Insert(k).second) scratch->distinct.push_back(k);
    w.Intent(scratch->distinct, local, local + 1);
  }
  if (NegativeDistribution() != nullptr) {
    const uint64_t k = NegativesFor(items, epoch);
    AUGUR_CHECK(k <= UINT32_MAX, "a batch samples %llu keys", static_cast<unsigned long long>(k));
    pending->push_back(Pending{local, w.PrepareSample(static_cast<uint32_t>(k), local, local + 1)});
  }
}

void BatchJob::RunWorker(Worker& w) {
  const uint32_t g = GlobalWorker(w);
  const std::vector<uint32_t>& mine = items_of_[g];
  const uint32_t b = BatchSize();
  const Clock lookahead = config_.zipf.lookahead;
  const bool records = w.node_id() == 0 && w.id() == 0;
  if (resume_.has_value()) RestoreRows(w, *resume_);
  // Batch c of the whole run (seeds its Rng); the worker's clock counts from 0.
  const Clock base = StartEpoch() * BatchesPerEpoch(g);
  IntentScratch ahead;
  std::deque<Pending> pending;
  BatchRows rows(RowLength());
  if (IntentRunGap() > 0 && lookahead > 0 && w.UsesIntent()) {
    intent_runs_[g] =
        IntentRuns(static_cast<uint32_t>(BatchesPerEpoch(g)), IntentRunGap(),
                   [&](uint32_t i, std::vector<Key>* keys) {
                     const size_t begin = size_t{i} * b;
                     const size_t n = std::min<size_t>(b, mine.size() - begin);
                     IntentKeys(std::span<const uint32_t>(mine.data() + begin, n), 0, keys);
                   });
  }
  for (Clock c = 0; c < lookahead; ++c) Signal(w, g, base + c, c, &ahead, &pending);
  double epoch_start = w.Now();
  // What the node spends per epoch (where its runtime can tell).
  const bool records_costs = EpochCosts::Records(w);
  EpochCosts& costs = epoch_costs_[w.node_id()];
  if (records_costs) costs.Begin(w);
  Clock c = 0;
  // This worker's loss over windows of its batches, and the process's epoch losses.
  DivergenceGuard window_guard(UntrainedLoss()), epoch_guard(UntrainedLoss());
  const Clock per_epoch = BatchesPerEpoch(g);
  const Clock window = std::max<Clock>(1, per_epoch / kDivergenceWindows);
  BatchStats in_window;
  Clock window_batches = 0;
  for (uint32_t epoch = StartEpoch(); epoch < config_.epochs; ++epoch) {
    BatchStats& stats = stats_[g][epoch];
    for (size_t begin = 0; begin < mine.size(); begin += b, ++c) {
      if (Stopped() || failed() || w.cancelled()) break;
      Signal(w, g, base + c + lookahead, c + lookahead, &ahead, &pending);
      SampleHandle negatives;
      if (!pending.empty() && pending.front().clock == c) {
        negatives = pending.front().handle;
        pending.pop_front();
      }
      const size_t n = std::min<size_t>(b, mine.size() - begin);
      Rng rng(DeriveSeed(config_.seed, g, static_cast<uint64_t>(base + c)));
      const BatchStats s = TrainBatch(w, std::span<const uint32_t>(mine.data() + begin, n), epoch,
                                      rng, negatives, rows);
      stats.loss += s.loss;
      stats.terms += s.terms;
      stats.samples += s.samples;
      stats.sampled += s.sampled;
      stats.sampled_key_sum += s.sampled_key_sum;
      stats.in_place += s.in_place;
      in_window.loss += s.loss;
      in_window.terms += s.terms;
      if (++window_batches == window) {
        if (in_window.terms > 0 &&
            !window_guard.Observe(epoch, in_window.loss / static_cast<double>(in_window.terms)))
          StopDiverged(window_guard.Message() + " (worker " + std::to_string(g) +
                           "'s loss over its last " + std::to_string(window) + " batches)",
                       epoch);
        in_window = BatchStats{};
        window_batches = 0;
      }
      // Per training sample, as calibrated from the baseline (result.samples):
      // wv's items are sentences, its samples their tokens.
      // The first epoch adds the calibrated start-up cost (first touches).
      const double extra = epoch == 0 ? config_.first_epoch_extra_seconds_per_sample : 0.0;
      w.Compute((ComputeSecondsPerSample() + extra) * static_cast<double>(s.samples));
      w.AdvanceClock();
    }
    rows.Finish(w);
    if (!w.Barrier().ok()) break;  // cancelled: the node is shutting down
    if (records) epoch_seconds_.push_back(w.Now() - epoch_start);
    if (records_costs) costs.End(w);
    // Every worker reads the same slots after the barrier: one decision for the process.
    double loss = 0, terms = 0;
    for (const auto& per_worker : stats_) {
      loss += per_worker[epoch].loss;
      terms += static_cast<double>(per_worker[epoch].terms);
    }
    // The flag was set before the barrier by a diverged window, or is set
    // now by every worker alike from the epoch's loss: one decision.
    const bool window_stop = StoppedBy(epoch);
    const bool epoch_ok = terms <= 0 || epoch_guard.Observe(epoch, loss / terms);
    if (!epoch_ok)
      StopDiverged(epoch_guard.Message() + " (mean training loss of the epoch)", epoch);
    if (window_stop || !epoch_ok) break;
    if (config_.checkpoint_every > 0 && (epoch + 1) % config_.checkpoint_every == 0)
      WriteRowCheckpoint(w, *this, config_, epoch + 1, base + c, Fingerprint());
    if (failed()) break;                 // every worker of the process sees it after the checkpoint
    if (records) epoch_start = w.Now();  // checkpoint time is not training time
    if (records_costs) costs.Begin(w);
  }
  // A stopped run redeems what it prepared ahead (nothing stays in flight).
  for (; (Stopped() || failed() || w.cancelled()) && !pending.empty(); pending.pop_front()) {
    std::vector<Key> unused;
    w.PullSample(pending.front().handle, &unused, nullptr);
  }
  AUGUR_CHECK(pending.empty(), "a prepared sample was never pulled");
  draws_.fetch_add(w.sample_draws(), std::memory_order_relaxed);
  if (w.id() == 0) node_metrics_[w.node_id()] = w.NodeMetrics();
  w.Barrier();  // every node took its snapshot before evaluation traffic starts
  // A diverged model is not evaluated, nor one whose node is shutting down.
  if (records && config_.evaluate && !Stopped() && !failed() && !w.cancelled()) {
    // Wall time on every backend (virtual clocks do not advance here).
    const auto eval_start = std::chrono::steady_clock::now();
    quality_ = std::make_unique<nlohmann::json>(Evaluate(w));
    eval_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - eval_start).count();
    if (QualityFloor floor; UntrainedQuality(&floor)) {
      const std::string worse = WorseThanUntrained(floor, *quality_, config_.epochs);
      if (!worse.empty()) StopDiverged(worse, config_.epochs);
      RecordUntrained(floor, quality_.get());
    }
  }
  w.Barrier();  // no node stops serving while node 0 still evaluates
}

void BatchJob::StopDiverged(const std::string& message, uint32_t epoch) {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (divergence_.empty()) divergence_ = message;
  if (epoch < stop_epoch_.load(std::memory_order_relaxed))
    stop_epoch_.store(epoch, std::memory_order_release);
  stopped_.store(true, std::memory_order_release);
}

void BatchJob::Report(RunResult* result) const {
  result->epoch_seconds = epoch_seconds_;
  result->total_seconds = 0;
  for (double s : epoch_seconds_) result->total_seconds += s;
  result->samples = 0;
  nlohmann::json losses = nlohmann::json::array();
  uint64_t sampled = 0, sampled_key_sum = 0, in_place = 0;
  for (uint32_t e = StartEpoch(); e < config_.epochs; ++e) {
    double loss = 0, terms = 0;
    for (const auto& per_worker : stats_) {
      loss += per_worker[e].loss;
      terms += static_cast<double>(per_worker[e].terms);
      result->samples += per_worker[e].samples;
      sampled += per_worker[e].sampled;
      sampled_key_sum += per_worker[e].sampled_key_sum;
      in_place += per_worker[e].in_place;
    }
    if (terms == 0 && Stopped()) break;  // epochs after the run stopped
    losses.push_back(terms > 0 ? loss / terms : 0.0);
  }
  for (const auto& m : node_metrics_) {
    if (!m.has_value()) continue;  // a node hosted by another process
    result->per_node.push_back(*m);
    result->totals += *m;
  }
  result->extra["train_loss_per_epoch"] = losses;
  epoch_costs_.Report(&*result->extra);
  // How the workers reached the rows held on their node (core/README.md).
  result->extra["row_access"] =
      config_.nodes == 1
          ? "direct: the store's rows updated in place without locks (Hogwild, as the "
            "single-node baseline)"
          : SeveralNodesRowAccess();
  // Training samples (this process's) whose rows were used where they are in
  // the store, without a pull/push copy: what row_access describes in numbers.
  result->extra["samples_in_place"] = in_place;
  result->extra["partition"] = {{"method", partition_info_.method},
                                {"worker_locality", partition_info_.worker_locality},
                                {"node_locality", partition_info_.node_locality}};
  if (NegativeDistribution() != nullptr) {
    // Keys returned by PullSample and draws from the workload's distribution
    // by the samplers (pool: about sampled / reuse), in this process.
    result->extra["sampling"] = {{"scheme", config_.sampling},
                                 {"reuse", config_.reuse},
                                 {"sampled_keys", sampled},
                                 {"sampled_key_sum", sampled_key_sum},
                                 {"distribution_draws", draws_.load()}};
  }
  if (resume_.has_value()) result->extra["resumed_after_epoch"] = StartEpoch();
  result->extra["diverged"] = Stopped();
  if (Stopped()) {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    result->extra["divergence"] = divergence_;
  }
  if (quality_ != nullptr && !quality_->is_null() && !Stopped()) {
    result->extra["quality"] = *quality_;
    result->extra["eval_seconds"] = eval_seconds_;  // apart from the epochs and their traffic
  }
}

}  // namespace augur

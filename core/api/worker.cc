#include "core/api/worker.h"

#include "core/base/check.h"

namespace augur {

namespace {
// Adds to a counter that only its own worker writes (others may read it): a
// relaxed load and store, no read-modify-write on the hot path.
template <typename T>
void AddOwn(std::atomic<T>& counter, T amount) {
  counter.store(counter.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
}
}  // namespace

Worker::Worker(NodePort& node, ParamStore& store, Runtime& runtime, Parker& parker, WorkerId id,
               SamplingOptions sampling, uint64_t seed)
    : node_(node),
      store_(store),
      runtime_(runtime),
      parker_(parker),
      id_(id),
      node_id_(runtime.self()),
      num_nodes_(runtime.num_nodes()),
      solo_(num_nodes_ == 1),
      sampler_(std::move(sampling), seed, sampler_access_,
               SampleLocality{store.layout(), store, solo_}),
      direct_cache_(store.layout()) {}

SampleHandle Worker::PrepareSample(uint32_t k, Clock start, Clock end) {
  return sampler_.Prepare(k, start, end);
}

void Worker::PullSample(SampleHandle h, std::vector<Key>* keys_out,
                        std::vector<float>* values_out) {
  sampler_.Pull(h, keys_out, values_out);
}

bool Worker::IsHeldLocally(Key key) const { return solo_ || store_.Contains(key); }

void Worker::AddCountsTo(MetricsSnapshot* s) const {
  (*s)[WorkerCounter::kLocalAccesses] += local_accesses();
  (*s)[WorkerCounter::kRemoteAccesses] += remote_accesses();
  (*s)[WorkerSeconds::kWaitSeconds] += wait_seconds();
  (*s)[WorkerSeconds::kBarrierSeconds] += barrier_seconds();
}

void Worker::CountDirect(uint64_t accesses) { AddOwn(local_accesses_, accesses); }

bool Worker::DirectAccess() const { return solo_; }

uint64_t Worker::DirectMoves() const { return store_.moves(); }

bool Worker::UsesIntent() const { return !solo_; }

void Worker::ResolveDirect(std::span<const Key> keys, std::vector<ParamStore::Entry>* entries) {
  AUGUR_CHECK(DirectAccess(), "direct access needs a one-node cluster");
  // Views stay valid until an entry is removed or replaced (a restore):
  // then every cached one is dropped.
  if (const uint64_t moves = store_.moves(); moves != direct_moves_) {
    direct_cache_.Clear();
    direct_moves_ = moves;
  }
  entries->resize(keys.size());
  direct_misses_.clear();
  const uint32_t state_rows = store_.optimizer().StateRows();
  for (uint32_t i = 0; i < keys.size(); ++i) {
    if (float* const value = direct_cache_.Find(keys[i])) {
      // One node holds main copies only: value, then its optimizer state.
      const uint32_t length = store_.layout().Length(keys[i]);
      (*entries)[i] = ParamStore::Entry{value,           state_rows > 0 ? value + length : nullptr,
                                        nullptr,         length,
                                        CopyKind::kMain, nullptr};
    } else {
      direct_misses_.push_back(i);
    }
  }
  if (!direct_misses_.empty()) {
    direct_miss_keys_.clear();
    for (uint32_t i : direct_misses_) direct_miss_keys_.push_back(keys[i]);
    direct_miss_entries_.resize(direct_miss_keys_.size());
    store_.ResolveBatch(direct_miss_keys_, direct_miss_entries_.data(), &scratch_,
                        /*create=*/true);
    for (size_t j = 0; j < direct_misses_.size(); ++j) {
      (*entries)[direct_misses_[j]] = direct_miss_entries_[j];
      direct_cache_.Insert(direct_miss_keys_[j], direct_miss_entries_[j].value);
    }
  }
  AddOwn(local_accesses_, uint64_t{keys.size()});
}

void Worker::ApplyDirect(std::span<const ParamStore::Entry> entries,
                         std::span<const float> deltas) {
  const uint32_t per_float = 1 + store_.optimizer().StateRows();
  size_t at = 0;
  for (const ParamStore::Entry& e : entries) {
    AUGUR_CHECK(at + e.length * per_float <= deltas.size(),
                "direct update has %zu floats, rows need more", deltas.size());
    store_.ApplyPush(e, &deltas[at]);
    at += e.length * per_float;
  }
  AddOwn(local_accesses_, uint64_t{entries.size()});
}

bool Worker::StepNeedsPush(const ParamStore::Entry& e, float learning_rate) const {
  const OptimizerConfig& o = store_.optimizer();
  return !(e.delta == nullptr && o.kind == OptimizerKind::kSgd && o.learning_rate == learning_rate);
}

void Worker::PushStep(const ParamStore::Entry& e, const float* before, float learning_rate) {
  step_grad_.resize(e.length);
  SgdStepGradient(before, e.value, e.length, learning_rate, step_grad_.data());
  std::copy_n(before, e.length, e.value);
  step_delta_.resize(size_t{e.length} * (1 + store_.optimizer().StateRows()));
  UpdateToDelta(store_.optimizer(), step_grad_.data(), e.length, step_delta_.data());
  store_.ApplyPush(e, step_delta_.data());
}

bool Worker::ResolveHeld(std::span<const Key> keys, std::vector<ParamStore::Entry>* entries,
                         uint64_t* since) {
  *since = store_.moves();
  entries->resize(keys.size());
  store_.ResolveBatch(keys, entries->data(), &scratch_, /*create=*/false);
  if (!scratch_.missing.empty()) return false;
  AddOwn(local_accesses_, uint64_t{keys.size()});
  return true;
}

bool Worker::HeldUnmoved(uint64_t since) const {
  // The reads through the views happen before the check (a seqlock reader's
  // fence): a row freed after this load was read before it was freed.
  std::atomic_thread_fence(std::memory_order_acquire);
  return store_.moves() == since;
}

void Worker::ApplyHeld(std::span<const Key> keys, std::span<const ParamStore::Entry> entries,
                       uint64_t since, std::span<const float* const> updates) {
  AUGUR_CHECK(keys.size() == updates.size() && keys.size() == entries.size(),
              "%zu keys, %zu entries, %zu updates", keys.size(), entries.size(), updates.size());
  store_.UpdateResolved(keys, entries, since, updates, &scratch_);
  const size_t missing = scratch_.missing.size();
  AddOwn(local_accesses_, uint64_t{keys.size() - missing});
  if (missing == 0) return;
  held_left_keys_.clear();
  held_left_updates_.clear();
  for (uint32_t i : scratch_.missing) {
    held_left_keys_.push_back(keys[i]);
    const uint32_t len = store_.layout().Length(keys[i]);
    held_left_updates_.insert(held_left_updates_.end(), updates[i], updates[i] + len);
  }
  Push(held_left_keys_, held_left_updates_);  // counts them; Push copies its input
}

void Worker::CountHeldPair() { AddOwn(local_accesses_, uint64_t{2}); }

size_t Worker::TotalLength(std::span<const Key> keys) const {
  size_t n = 0;
  for (Key k : keys) n += store_.layout().Length(k);
  return n;
}

size_t Worker::TotalDeltaLength(std::span<const Key> keys) const {
  return TotalLength(keys) * (1 + store_.optimizer().StateRows());
}

Ticket Worker::Access(MessageType type, std::span<const Key> keys, const float* in,
                      std::span<float> out) {
  const ValueLayout& layout = store_.layout();
  offsets_.resize(keys.size());
  uint32_t offset = 0;
  // A push carries a delta per key (DeltaLength floats), the rest a value.
  const uint32_t per_float =
      type == MessageType::kPushRequest ? 1 + store_.optimizer().StateRows() : 1;
  for (size_t i = 0; i < keys.size(); ++i) {
    offsets_[i] = offset;
    offset += layout.Length(keys[i]) * per_float;
  }
  const bool create = solo_;  // homed here, never leaves: first touch on the hot path
  switch (type) {
    case MessageType::kPullRequest:
      store_.PullBatch(keys, offsets_, out.data(), &scratch_, create);
      break;
    case MessageType::kPushRequest:
      store_.PushBatch(keys, offsets_, in, &scratch_, create);
      break;
    default:
      store_.SetBatch(keys, offsets_, in, &scratch_, create);
      break;
  }
  const size_t missing = scratch_.missing.size();
  AddOwn(local_accesses_, uint64_t{keys.size() - missing});
  AddOwn(remote_accesses_, uint64_t{missing});
  if (missing == 0) return Ticket{};
  return node_.SlowPath(id_, type, keys, offsets_, scratch_.missing, in, out);
}

Ticket Worker::Pull(std::span<const Key> keys, std::span<float> out) {
  AUGUR_CHECK(out.size() == TotalLength(keys), "pull buffer has %zu floats, keys need %zu",
              out.size(), TotalLength(keys));
  return Access(MessageType::kPullRequest, keys, nullptr, out);
}

Ticket Worker::Push(std::span<const Key> keys, std::span<const float> updates) {
  AUGUR_CHECK(updates.size() == TotalLength(keys), "push has %zu floats, keys need %zu",
              updates.size(), TotalLength(keys));
  const OptimizerConfig& o = store_.optimizer();
  if (o.StateRows() == 0)  // a delta is the update itself
    return Access(MessageType::kPushRequest, keys, updates.data(), {});
  push_deltas_.resize(TotalDeltaLength(keys));
  size_t in = 0, out = 0;
  for (Key k : keys) {
    const uint32_t len = store_.layout().Length(k);
    UpdateToDelta(o, &updates[in], len, &push_deltas_[out]);
    in += len;
    out += size_t{len} * (1 + o.StateRows());
  }
  return Access(MessageType::kPushRequest, keys, push_deltas_.data(), {});
}

Ticket Worker::PushDeltas(std::span<const Key> keys, std::span<const float> deltas) {
  AUGUR_CHECK(deltas.size() == TotalDeltaLength(keys), "push has %zu floats, keys need %zu",
              deltas.size(), TotalDeltaLength(keys));
  return Access(MessageType::kPushRequest, keys, deltas.data(), {});
}

Ticket Worker::Set(std::span<const Key> keys, std::span<const float> values) {
  AUGUR_CHECK(values.size() == TotalLength(keys), "set has %zu floats, keys need %zu",
              values.size(), TotalLength(keys));
  return Access(MessageType::kSetRequest, keys, values.data(), {});
}

bool Worker::IsDone(Ticket t) { return t.id == 0 || node_.OpDone(t.id); }

namespace {
Status Cancelled() { return Status::Error("cancelled: the node is shutting down"); }
}  // namespace

template <typename Done>
Status Worker::ParkUntil(Done done, uint64_t op, std::atomic<double>* seconds) {
  if (done()) return Status::Ok();
  if (cancelled()) return Cancelled();
  const double start = Now();
  bool cancelled_now = false;
  for (;;) {
    node_.SetWaiting(id_, true, op, start);
    if (done()) break;  // re-check after announcing: no lost wake-up
    if ((cancelled_now = cancelled())) break;
    parker_.Park();
    if (done()) break;
  }
  node_.SetWaiting(id_, false, NodePort::kNotAnOperation, start);
  AddOwn(*seconds, Now() - start);
  return cancelled_now ? Cancelled() : Status::Ok();
}

Status Worker::Wait(Ticket t) {
  if (t.id == 0) return Status::Ok();
  return ParkUntil([&] { return node_.OpDone(t.id); }, t.id, &wait_seconds_);
}

Status Worker::WaitAll() {
  return ParkUntil([&] { return node_.WorkerIdle(id_); }, NodePort::kAllOperations, &wait_seconds_);
}

void Worker::Intent(std::span<const Key> keys, Clock start, Clock end) {
  const IntentSignal signal{keys, start, end};
  node_.RecordIntents(id_, std::span<const IntentSignal>(&signal, 1));
}

void Worker::Intents(std::span<const IntentSignal> signals) { node_.RecordIntents(id_, signals); }

void Worker::AdvanceClock() {
  ++clock_;
  node_.RecordClock(id_, clock_);
}

Status Worker::WaitSync() {
  if (cancelled()) return Cancelled();
  const uint64_t op = node_.StartWaitSync(id_);
  if (op == 0) return Status::Ok();
  return ParkUntil([&] { return node_.OpDone(op); }, op, &wait_seconds_);
}

Status Worker::Barrier() {
  if (Status s = WaitAll(); !s.ok()) return s;
  const uint64_t gen = node_.ArriveAtBarrier(id_);
  return ParkUntil([&] { return node_.BarrierReleased(gen); }, NodePort::kNotAnOperation,
                   &barrier_seconds_);
}

void Worker::PauseActions(bool paused) { node_.PauseActions(paused); }

Status Worker::WaitNothingIncoming() {
  return ParkUntil([&] { return node_.NothingIncoming(); }, NodePort::kNotAnOperation,
                   &barrier_seconds_);
}

void Worker::CopyMainRows(std::vector<Key>* keys, std::vector<std::vector<float>>* rows) const {
  node_.CopyMainRows(keys, rows);
}

void Worker::InstallMainRows(std::span<const Key> keys, std::span<const float> rows) {
  node_.InstallMainRows(keys, rows);
}

void Worker::Compute(double seconds) {
  if (seconds > 0) runtime_.Compute(seconds);
}

MetricsSnapshot Worker::NodeMetrics() const { return node_.Metrics(); }

double Worker::Now() { return runtime_.Now(); }

double Worker::NodeCpuSeconds() { return runtime_.CpuSeconds(); }

}  // namespace augur

#include "core/api/worker.h"

#include "core/base/check.h"
#include "core/protocol/home.h"
#include "core/protocol/node.h"

namespace augur {

Worker::Worker(Node& node, WorkerId id, std::unique_ptr<Parker> parker)
    : node_(node), id_(id), parker_(std::move(parker)), batch_of_dest_(node.num_nodes(), -1) {}

NodeId Worker::node_id() const { return node_.self(); }
uint32_t Worker::num_nodes() const { return node_.num_nodes(); }

size_t Worker::TotalLength(std::span<const Key> keys) const {
  size_t n = 0;
  for (Key k : keys) n += node_.layout().Length(k);
  return n;
}

Worker::Batch& Worker::BatchFor(NodeId dest) {
  int32_t& idx = batch_of_dest_[dest];
  if (idx < 0) {
    if (active_batches_ == batches_.size()) batches_.emplace_back();
    idx = static_cast<int32_t>(active_batches_++);
    batches_[idx].dest = dest;
  }
  return batches_[idx];
}

void Worker::ClearBatches() {
  for (size_t i = 0; i < active_batches_; ++i) {
    Batch& b = batches_[i];
    batch_of_dest_[b.dest] = -1;
    b.keys.clear();
    b.slots.clear();
    b.values.clear();
  }
  active_batches_ = 0;
}

Ticket Worker::SendBatches(MessageType type, std::span<float> pull_out) {
  if (active_batches_ == 0) return Ticket{};
  uint64_t remote = 0;
  for (size_t i = 0; i < active_batches_; ++i) remote += batches_[i].keys.size();
  remote_accesses_ += remote;
  // Register the operation (and the pull's output buffer) before any request leaves.
  const uint64_t op = node_.BeginOp(id_, type, remote, pull_out.data(), pull_out.size());
  for (size_t i = 0; i < active_batches_; ++i) {
    Batch& b = batches_[i];
    Message m;
    m.type = type;
    m.src = m.origin = node_.self();
    m.op_id = op;
    m.keys = std::move(b.keys);
    m.slots = std::move(b.slots);
    m.values = std::move(b.values);
    node_.SendMessage(b.dest, m);
  }
  ClearBatches();
  return Ticket{op};
}

void Worker::Route(std::span<const Key> keys, const float* values, bool with_values) {
  const ValueLayout& layout = node_.layout();
  local_keys_.clear();
  local_offsets_.clear();
  scratch_.hashes.clear();
  const NodeId self = node_.self();
  const uint32_t nodes = node_.num_nodes();
  uint32_t offset = 0;
  for (Key k : keys) {
    const uint32_t len = layout.Length(k);
    const uint64_t hash = Mix64(k);
    const NodeId home = HomeNodeOfHash(hash, nodes);
    if (home == self) {
      local_keys_.push_back(k);
      local_offsets_.push_back(offset);
      scratch_.hashes.push_back(hash);
    } else {
      Batch& b = BatchFor(home);
      b.keys.push_back(k);
      if (with_values) {
        b.values.insert(b.values.end(), values + offset, values + offset + len);
      } else {
        b.slots.push_back(offset);
      }
    }
    offset += len;
  }
  local_accesses_ += local_keys_.size();
}

Ticket Worker::Pull(std::span<const Key> keys, std::span<float> out) {
  AUGUR_CHECK(out.size() == TotalLength(keys), "pull buffer has %zu floats, keys need %zu",
              out.size(), TotalLength(keys));
  Route(keys, nullptr, false);
  if (!local_keys_.empty())
    node_.store().PullBatch(local_keys_, local_offsets_, out.data(), &scratch_);
  return SendBatches(MessageType::kPullRequest, out);
}

Ticket Worker::Push(std::span<const Key> keys, std::span<const float> updates) {
  AUGUR_CHECK(updates.size() == TotalLength(keys), "push has %zu floats, keys need %zu",
              updates.size(), TotalLength(keys));
  Route(keys, updates.data(), true);
  if (!local_keys_.empty())
    node_.store().PushBatch(local_keys_, local_offsets_, updates.data(), &scratch_);
  return SendBatches(MessageType::kPushRequest, {});
}

Ticket Worker::Set(std::span<const Key> keys, std::span<const float> values) {
  AUGUR_CHECK(values.size() == TotalLength(keys), "set has %zu floats, keys need %zu",
              values.size(), TotalLength(keys));
  Route(keys, values.data(), true);
  if (!local_keys_.empty())
    node_.store().SetBatch(local_keys_, local_offsets_, values.data(), &scratch_);
  return SendBatches(MessageType::kSetRequest, {});
}

bool Worker::IsDone(Ticket t) { return t.id == 0 || node_.OpDone(t.id); }

template <typename Done>
void Worker::ParkUntil(Done done) {
  if (done()) return;
  for (;;) {
    node_.SetWaiting(id_, true);
    if (done()) break;  // re-check after announcing: no lost wake-up
    parker_->Park();
    if (done()) break;
  }
  node_.SetWaiting(id_, false);
}

void Worker::Wait(Ticket t) {
  if (t.id != 0) ParkUntil([&] { return node_.OpDone(t.id); });
}

void Worker::WaitAll() {
  ParkUntil([&] { return node_.WorkerIdle(id_); });
}

void Worker::Intent(std::span<const Key> keys, Clock start, Clock end) {
  node_.RecordIntent(id_, keys, start, end);
}

void Worker::AdvanceClock() {
  ++clock_;
  node_.RecordClock(id_, clock_);
}

void Worker::Barrier() {
  WaitAll();
  uint64_t gen = 0;
  node_.ArriveAtBarrier(id_, &gen);
  ParkUntil([&] { return node_.BarrierReleased(gen); });
}

void Worker::Compute(double seconds) {
  if (seconds > 0) node_.runtime().Compute(seconds);
}

MetricsSnapshot Worker::NodeMetrics() const { return node_.Metrics(); }

double Worker::Now() { return node_.runtime().Now(); }

}  // namespace augur

#include "core/protocol/operation_table.h"

#include <algorithm>

#include "core/api/node_port.h"
#include "core/base/check.h"

namespace augur {

OperationTable::OperationTable(std::vector<Parker*> parkers)
    : parkers_(std::move(parkers)),
      outstanding_(parkers_.size(), 0),
      waiting_(parkers_.size(), 0),
      wait_op_(parkers_.size(), 0),
      wait_since_(parkers_.size(), 0) {}

uint64_t OperationTable::Begin(WorkerId w, MessageType kind, uint64_t keys, float* out,
                               size_t out_len, std::span<const Key> first_keys) {
  const uint64_t id = next_op_id_++;
  PendingOp op{w, kind, keys, out, out_len, keys, {}, 0};
  op.first_key_count = static_cast<uint32_t>(std::min(first_keys.size(), kFirstKeys));
  std::copy_n(first_keys.begin(), op.first_key_count, op.first_keys.begin());
  ops_.emplace(id, op);
  if (w != kNoWorker) ++outstanding_[w];
  return id;
}

uint64_t OperationTable::Unfinished(WorkerId w, uint64_t op) const {
  if (op != NodePort::kAllOperations) return Pending(op) ? op : 0;
  if (outstanding_[w] == 0) return 0;
  uint64_t oldest = 0;  // ids grow: the smallest is the oldest
  for (const auto& [id, pending] : ops_)
    if (pending.worker == w && (oldest == 0 || id < oldest)) oldest = id;
  return oldest;
}

void OperationTable::Complete(uint64_t op_id, uint64_t keys, Effects* fx) {
  auto it = ops_.find(op_id);
  AUGUR_CHECK(it != ops_.end(), "op %llu vanished", static_cast<unsigned long long>(op_id));
  PendingOp& op = it->second;
  AUGUR_CHECK(keys <= op.remaining_keys, "op %llu completed twice",
              static_cast<unsigned long long>(op_id));
  op.remaining_keys -= keys;
  if (op.remaining_keys > 0) return;
  const WorkerId w = op.worker;
  ops_.erase(it);
  if (w == kNoWorker) return;
  --outstanding_[w];
  if (waiting_[w]) fx->wake.push_back(parkers_[w]);
}

const OperationTable::PendingOp* OperationTable::Find(uint64_t op_id) const {
  auto it = ops_.find(op_id);
  return it == ops_.end() ? nullptr : &it->second;
}

Status OperationTable::Check(const Message& m, MessageType kind, uint64_t keys) const {
  const auto from = [&m] {
    return std::string(MessageTypeName(m.type)) + " from node " + std::to_string(m.src);
  };
  auto it = ops_.find(m.op_id);
  if (it == ops_.end())
    return Status::Error(from() + ": unknown operation " + std::to_string(m.op_id));
  if (it->second.kind != kind || keys > it->second.remaining_keys)
    return Status::Error(from() + ": does not match operation " + std::to_string(m.op_id));
  return Status::Ok();
}

void OperationTable::WakeWaiting(Effects* fx) const {
  for (WorkerId w = 0; w < parkers_.size(); ++w)
    if (waiting_[w]) fx->wake.push_back(parkers_[w]);
}

}  // namespace augur

#include "experiments/jobs/batch_rows.h"

#include <algorithm>
#include <cstring>

#include "core/base/check.h"
#include "core/store/optimizer.h"

namespace augur {

void BatchRows::Pull(Worker& w, bool keep_original) {
  sampled_keys_.clear();
  sampled_values_.clear();
  sampled_slots_.clear();
  EndPull(w, BeginPull(w), keep_original);
}

Ticket BatchRows::BeginPull(Worker& w) {
  direct_ = w.DirectAccess();
  optimizer_ = &w.optimizer();
  stride_ = row_ * (1 + optimizer_->StateRows());
  squares_stale_ = false;
  if (direct_) return Ticket{};  // resolved in EndPull
  values_.resize(keys_.size() * row_);
  return w.Pull(keys_, values_);
}

void BatchRows::AddSampledKeys(const std::vector<float>* values) {
  AUGUR_CHECK(values == nullptr || values->size() == sampled_keys_.size() * row_,
              "sampled values do not match the sampled keys");
  // Room for all of them at once, so the rows are not moved again as they come.
  if (values != nullptr) values_.reserve(values_.size() + values->size());
  sampled_slots_.clear();
  for (size_t j = 0; j < sampled_keys_.size(); ++j) {
    const Key k = sampled_keys_[j];
    const auto [slot, added] = index_.Insert(k);
    sampled_slots_.push_back(slot);
    if (!added) continue;
    keys_.push_back(k);
    if (values == nullptr) continue;
    const float* v = &(*values)[j * row_];
    values_.insert(values_.end(), v, v + row_);
  }
}

void BatchRows::EndPull(Worker& w, Ticket t, bool keep_original) {
  w.Wait(t);
  if (direct_) {
    w.ResolveDirect(keys_, &direct_rows_);
    StartGrads();
    return;
  }
  if (keep_original) original_ = values_;  // PushSgdSteps then writes every gradient
  StartGrads();
}

void BatchRows::StartGrads() {
  grads_.resize(keys_.size() * stride_);  // not zeroed: slots are written or zeroed on first use
  has_grad_.assign(keys_.size(), 0);
  grads_written_ = 0;
}

uint32_t BatchRows::Slot(Key key) const {
  const std::optional<uint32_t> slot = index_.Find(key);
  AUGUR_CHECK(slot.has_value(), "key %llu was not pulled in this batch",
              static_cast<unsigned long long>(key));
  return *slot;
}

void BatchRows::PushGradients(Worker& w) {
  if (direct_ && grads_written_ == 0) {  // every gradient was stepped in (AddGradient)
    w.CountDirect(keys_.size());
    return;
  }
  if (grads_written_ < keys_.size()) {  // the slots that got no gradient push zeros
    for (size_t slot = 0; slot < keys_.size(); ++slot)
      if (has_grad_[slot] == 0)
        std::fill_n(grads_.begin() + static_cast<std::ptrdiff_t>(slot * stride_), stride_, 0.0f);
  }
  if (squares_stale_ && stride_ != row_) {
    // Summed through GradAt: each sum is pushed as one update (its squares).
    for (size_t slot = 0; slot < keys_.size(); ++slot) {
      float* sum = &grads_[slot * stride_];
      for (uint32_t i = 0; i < row_; ++i) sum[row_ + i] = sum[i] * sum[i];
    }
  }
  if (direct_) {
    w.ApplyDirect(direct_rows_, grads_);
    return;
  }
  Issued(w, w.PushDeltas(keys_, grads_));
}

void BatchRows::PushSgdSteps(Worker& w, float learning_rate) {
  if (direct_) return;  // the steps were taken on the store's rows
  AUGUR_CHECK(original_.size() == values_.size(), "PushSgdSteps needs keep_original");
  if (stride_ == row_) {
    SgdStepGradient(original_.data(), values_.data(), values_.size(), learning_rate, grads_.data());
  } else {  // each step one update of the store's optimizer (its delta)
    std::vector<float> step(row_);
    for (size_t slot = 0; slot < keys_.size(); ++slot) {
      const size_t at = slot * row_;
      SgdStepGradient(&original_[at], &values_[at], row_, learning_rate, step.data());
      UpdateToDelta(*optimizer_, step.data(), row_, &grads_[slot * stride_]);
    }
  }
  Issued(w, w.PushDeltas(keys_, grads_));
}

void BatchRows::Issued(Worker& w, Ticket t) {
  while (!pushes_.empty() && w.IsDone(pushes_.front())) pushes_.pop_front();
  if (t.id != 0) pushes_.push_back(t);
  // A cancelled wait returns at once (the node is shutting down): the job
  // sees w.cancelled() and stops.
  while (pushes_.size() > kPushesInFlight) {
    (void)w.Wait(pushes_.front());
    pushes_.pop_front();
  }
}

void BatchRows::Finish(Worker& w) {
  for (; !pushes_.empty(); pushes_.pop_front()) (void)w.Wait(pushes_.front());
}

}  // namespace augur

#include "experiments/jobs/batch_rows.h"

#include <algorithm>

#include "core/base/check.h"

namespace augur {

void BatchRows::Pull(Worker& w, bool keep_original) {
  const Ticket t = BeginPull(w);
  sampled_keys_.clear();
  sampled_values_.clear();
  EndPull(w, t, keep_original);
}

Ticket BatchRows::BeginPull(Worker& w) {
  Finish(w);
  std::sort(keys_.begin(), keys_.end());
  keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
  values_.resize(keys_.size() * row_);
  return w.Pull(keys_, values_);
}

void BatchRows::EndPull(Worker& w, Ticket t, bool keep_original) {
  AUGUR_CHECK(sampled_values_.size() == sampled_keys_.size() * row_,
              "sampled values do not match the sampled keys");
  w.Wait(t);
  // Sampled keys by key (first occurrence wins), merged into the sorted rows.
  order_.resize(sampled_keys_.size());
  for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  std::stable_sort(order_.begin(), order_.end(),
                   [&](uint32_t a, uint32_t b) { return sampled_keys_[a] < sampled_keys_[b]; });
  merged_keys_.clear();
  merged_values_.clear();
  size_t i = 0, j = 0;
  while (i < keys_.size() || j < order_.size()) {
    const bool take_sample =
        j < order_.size() && (i == keys_.size() || sampled_keys_[order_[j]] < keys_[i]);
    if (take_sample) {
      const Key k = sampled_keys_[order_[j]];
      const float* v = &sampled_values_[size_t{order_[j]} * row_];
      merged_keys_.push_back(k);
      merged_values_.insert(merged_values_.end(), v, v + row_);
      while (j < order_.size() && sampled_keys_[order_[j]] == k) ++j;
    } else {
      const Key k = keys_[i];
      merged_keys_.push_back(k);
      merged_values_.insert(merged_values_.end(), &values_[i * row_], &values_[(i + 1) * row_]);
      while (j < order_.size() && sampled_keys_[order_[j]] == k) ++j;  // pulled ordinarily
      ++i;
    }
  }
  keys_.swap(merged_keys_);
  values_.swap(merged_values_);
  grads_.assign(values_.size(), 0.0f);
  if (keep_original) original_ = values_;
}

size_t BatchRows::Slot(Key key) const {
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
  AUGUR_CHECK(it != keys_.end() && *it == key, "key %llu was not pulled in this batch",
              static_cast<unsigned long long>(key));
  return static_cast<size_t>(it - keys_.begin());
}

void BatchRows::PushGradients(Worker& w) { push_ = w.Push(keys_, grads_); }

void BatchRows::PushSgdSteps(Worker& w, float learning_rate) {
  AUGUR_CHECK(original_.size() == values_.size(), "PushSgdSteps needs keep_original");
  const float inv = 1.0f / learning_rate;
  for (size_t i = 0; i < values_.size(); ++i) grads_[i] = (original_[i] - values_[i]) * inv;
  push_ = w.Push(keys_, grads_);
}

void BatchRows::Finish(Worker& w) {
  if (push_.id != 0) w.Wait(push_);
  push_ = Ticket{};
}

}  // namespace augur

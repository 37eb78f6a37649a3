#include "experiments/jobs/batch_rows.h"

#include <algorithm>

#include "core/base/check.h"

namespace augur {

void BatchRows::Pull(Worker& w, bool keep_original) {
  Finish(w);
  std::sort(keys_.begin(), keys_.end());
  keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
  const size_t n = keys_.size() * row_;
  values_.resize(n);
  grads_.assign(n, 0.0f);
  w.Wait(w.Pull(keys_, values_));
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

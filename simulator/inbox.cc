#include "simulator/inbox.h"

#include <limits>
#include <simgrid/s4u.hpp>

#include "simulator/compute_model.h"

namespace augur {

namespace sg4 = simgrid::s4u;

namespace {
// A parcel due within this of now is due (timeouts land within rounding of their target).
constexpr double kDueSlack = 1e-12;
}  // namespace

Inbox::Inbox() : wake_(sg4::Semaphore::create(0)) {}

void Inbox::Push(Parcel* parcel, double due) {
  queue_.push(Entry{due, next_seq_++, parcel});
  if (parked_ && due < wake_at_) {
    parked_ = false;
    wake_->release();
  }
}

bool Inbox::HasDueBy(double time) const {
  return !queue_.empty() && queue_.top().due <= time + kDueSlack;
}

Parcel* Inbox::Take(ComputeModel& compute) {
  last_take_waited_ = false;
  for (;;) {
    double wait = -1;  // < 0: until woken
    if (!queue_.empty()) {
      const Entry& top = queue_.top();
      const double now = sg4::Engine::get_clock();
      if (top.due <= now + kDueSlack) {
        Parcel* p = top.parcel;
        queue_.pop();
        return p;
      }
      wait = top.due - now;
    }
    parked_ = true;
    wake_at_ = wait < 0 ? std::numeric_limits<double>::infinity() : sg4::Engine::get_clock() + wait;
    compute.BeforeYield();
    if (wait < 0) {
      wake_->acquire();
    } else {
      wake_->acquire_timeout(wait);
    }
    compute.AfterYield();
    parked_ = false;
    last_take_waited_ = true;
  }
}

}  // namespace augur

// Inbox: the parcels on their way to one node, each with the simulated time
// it is due (the NIC's transfer end plus the route latency, or a timer's
// expiry), handed to the node's protocol actor in due order (ties: arrival
// order, so a pair's parcels, all with the same latency, stay FIFO).
// Push() may be called by any actor; Take() only by the node's protocol
// actor, which sleeps on a SimGrid semaphore until the next parcel is due
// (woken early only by a parcel due sooner). Threading: SimGrid actors of one
// simulation only.
#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <queue>
#include <vector>

namespace augur {

struct Parcel;
class ComputeModel;

class Inbox {
 public:
  Inbox();
  void Push(Parcel* parcel, double due);
  // Blocks until the earliest parcel is due, then returns it (caller owns it
  // until it gives it back to the pool). Brackets its waits for measured compute.
  Parcel* Take(ComputeModel& compute);
  // Whether the last Take() had to wait: false when its parcel was already due
  // as the previous one's handling ended, which a real I/O thread reads in the
  // same wake-up (epoll returns every ready socket at once).
  bool last_take_waited() const { return last_take_waited_; }
  // Whether a parcel due by `time` is queued (Take returns it without waiting
  // once the clock has reached `time`).
  bool HasDueBy(double time) const;

 private:
  struct Entry {
    double due;
    uint64_t seq;
    Parcel* parcel;
    bool operator>(const Entry& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
  uint64_t next_seq_ = 0;
  simgrid::s4u::SemaphorePtr wake_;
  bool parked_ = false;
  double wake_at_ = 0;  // while parked: when it wakes by itself (infinity: never)
  bool last_take_waited_ = true;
};

}  // namespace augur

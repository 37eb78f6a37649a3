// Parcel: what one SimGrid comm carries to a node's mailbox: the frames one
// node sent to another while the previous parcel between them was on the wire
// (in send order), or one timer expiry. ParcelPool owns every parcel of a
// simulation and recycles them, so a parcel left in flight when the run is
// cut short (failure, error) is freed with the pool, never twice.
// Threading: SimGrid actors of one simulation only.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/types.h"

namespace augur {

struct Parcel {
  NodeId from = 0;
  bool timer = false;
  uint64_t timer_id = 0;
  std::vector<std::vector<uint8_t>> frames;
  uint64_t bytes = 0;  // sum of the frames' sizes: the simulated payload
};

class ParcelPool {
 public:
  // A cleared parcel, owned by the pool; hand it back with Give().
  Parcel* Take() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<Parcel>());
      return all_.back().get();
    }
    Parcel* p = free_.back();
    free_.pop_back();
    return p;
  }
  void Give(Parcel* p) {
    p->from = 0;
    p->timer = false;
    p->timer_id = 0;
    p->frames.clear();
    p->bytes = 0;
    free_.push_back(p);
  }

 private:
  std::vector<std::unique_ptr<Parcel>> all_;
  std::vector<Parcel*> free_;
};

}  // namespace augur

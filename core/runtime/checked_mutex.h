// CheckedMutex: the engine Mutex for cooperative runtimes (loopback, SimGrid).
//
// There only one context runs at a time and the core never calls the runtime
// inside a critical section, so the lock can never be contended; finding it
// held is a protocol bug, reported with an abort instead of a hang.
// Not thread-safe by design: never use it with real threads.
#pragma once

#include "core/base/check.h"
#include "core/runtime/runtime.h"

namespace augur {

class CheckedMutex final : public Mutex {
 public:
  void lock() override {
    AUGUR_CHECK(!locked_, "engine lock re-entered (a critical section called into the runtime)");
    locked_ = true;
  }
  void unlock() override { locked_ = false; }

 private:
  bool locked_ = false;
};

}  // namespace augur

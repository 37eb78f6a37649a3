// Barrier: the global barrier over all workers of all nodes.
//
// A node's workers arrive at its current generation; the last of them moves
// the node on and tells the coordinator (node 0) or, at node 0, counts the
// node itself. Once every node has arrived, node 0 releases the generation
// everywhere and the parked workers wake.
//
// Owns: the generation local workers arrive at, how many arrived, the
// released generations, and (node 0) the arrivals per generation.
// Locking: every method takes the engine lock itself.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "core/base/status.h"
#include "core/codec/message.h"
#include "core/protocol/effects.h"
#include "core/protocol/engine_context.h"

namespace augur {

class Barrier {
 public:
  explicit Barrier(EngineContext& cx) : cx_(cx) {}
  Barrier(const Barrier&) = delete;
  Barrier& operator=(const Barrier&) = delete;

  // A local worker arrives; the generation it waits for.
  uint64_t Arrive();
  bool Released(uint64_t generation);
  // A barrier-arrive (at node 0) or barrier-release message.
  Status Handle(const Message& m);

 private:
  void Release(uint64_t generation, Effects* fx);  // REQUIRES: engine lock held

  EngineContext& cx_;
  uint64_t generation_ = 0;  // generation local workers are arriving at
  uint32_t arrived_ = 0;     // local workers arrived at it
  uint64_t released_ = 0;    // generations < this are released
  std::unordered_map<uint64_t, uint32_t> coordinator_arrivals_;  // node 0 only
};

}  // namespace augur

#include "core/protocol/engine_context.h"

#include <algorithm>

#include "core/base/check.h"

namespace augur {

namespace {
std::vector<std::unique_ptr<Parker>> NewParkers(Runtime& runtime, uint32_t workers) {
  std::vector<std::unique_ptr<Parker>> parkers;
  for (uint32_t w = 0; w < workers; ++w) parkers.push_back(runtime.NewParker());
  return parkers;
}

std::vector<Parker*> Pointers(const std::vector<std::unique_ptr<Parker>>& parkers) {
  std::vector<Parker*> out;
  for (const auto& p : parkers) out.push_back(p.get());
  return out;
}
}  // namespace

EngineContext::EngineContext(Runtime& rt, ParamStore& param_store, const Policy& node_policy,
                             NodeCounters& node_counters, uint32_t num_workers, double sync_period)
    : runtime(rt),
      self(rt.self()),
      num_nodes(rt.num_nodes()),
      store(param_store),
      policy(node_policy),
      counters(node_counters),
      sync_period_seconds(sync_period),
      mu_(rt.NewMutex()),
      parkers_(NewParkers(rt, num_workers)),
      ops(Pointers(parkers_)),
      sends(rt, *mu_, param_store, node_counters) {}

bool EngineContext::HasMain(Key key) {
  bool main = false;
  store.With(key, false, [&](ParamStore::Entry& e) { main = e.kind == CopyKind::kMain; });
  return main;
}

std::string EngineContext::From(const Message& m) {
  return std::string(MessageTypeName(m.type)) + " from node " + std::to_string(m.src);
}

Status EngineContext::CheckValueCount(const Message& m, bool rows, size_t value_count) const {
  uint64_t need = 0;
  for (Key k : m.keys) need += rows ? store.RowLength(k) : layout().Length(k);
  if (need != value_count) {
    return Status::Error(From(m) + ": " + std::to_string(value_count) +
                         " values for keys needing " + std::to_string(need));
  }
  return Status::Ok();
}

Status EngineContext::CheckDistinctKeys(const Message& m) {
  std::vector<Key> keys = m.keys;
  std::sort(keys.begin(), keys.end());
  auto twice = std::adjacent_find(keys.begin(), keys.end());
  if (twice == keys.end()) return Status::Ok();
  return Status::Error(From(m) + ": key " + std::to_string(*twice) + " appears twice");
}

void EngineContext::EnsureTimer() {
  {
    LockGuard<Mutex> g(*mu_);
    if (timer_armed) return;
    timer_armed = true;
  }
  runtime.SetTimer(sync_period_seconds, kSyncTimer);
}

void EngineContext::Flush(Effects& fx) {
  AUGUR_CHECK(fx.out.empty(), "messages built outside an EngineLock would leave out of order");
  sends.SendQueued(fx.send_now);
  for (Parker* p : fx.wake) p->Unpark();
  fx.wake.clear();
  if (fx.arm_timer) EnsureTimer();
}

}  // namespace augur

// The table of a node's result counters: one line per counter,
// X(enumerator, "reported name", "doc").
//
// The reported name (the result.json key, the CSV column) is spelled here and
// nowhere else: code names a counter by its enumerator (NodeCounter,
// WorkerCounter, WorkerSeconds, generated below) and asks CounterName() for
// its name. The atomics (NodeCounters), the snapshot (MetricsSnapshot and its
// +=), Node::Metrics(), result.json (experiments/report/run_result.cc) and the
// sum over TCP ranks (experiments/launch/result_merge.cc) iterate over
// AllCounters<E>(). A new counter is one line here, plus the place that
// increments it.
//
// Pure constants: safe from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

// Protocol counters: atomics in NodeCounters, updated relaxed by workers and
// the protocol context.
#define AUGUR_NODE_COUNTERS(X)                                                                    \
  X(kMessagesSent, "messages_sent", "frames this node sent")                                      \
  X(kBundledMessages, "bundled_messages", "messages sent inside bundles (one frame each bundle)") \
  X(kBytesSent, "bytes_sent", "encoded bytes of those frames")                                    \
  X(kMessagesReceived, "messages_received", "frames this node handled")                           \
  X(kBytesReceived, "bytes_received", "encoded bytes of those frames")                            \
  X(kIntents, "intents", "Intent() calls")                                                        \
  X(kIntentKeys, "intent_keys", "keys named in them")                                             \
  X(kRelocations, "relocations", "main copies handed over by this node")                          \
  X(kReplicasCreated, "replicas_created", "replicas this node received")                          \
  X(kReplicasDropped, "replicas_dropped", "replicas this node dropped")                           \
  X(kReplicaSyncs, "replica_syncs", "replica deltas flushed to their main copy")                  \
  X(kReplicaPolls, "replica_polls", "replicas synced with a zero delta (key only)")               \
  X(kReplicaClips, "replica_clips", "replica flushes clipped (replica_delta_bound.h)")            \
  X(kReplicaDeferrals, "replica_deferrals", "replicas a timer round skipped as insignificant")    \
  X(kSyncRounds, "sync_rounds", "timer sync rounds started (flow control may skip periods)")      \
  X(kSyncRoundTrips, "sync_round_trips", "timer sync rounds answered (their round trips timed)")  \
  X(kSyncRoundTripMicros, "sync_round_trip_micros",                                               \
    "those rounds' round trips summed, microseconds (the runtime's clock)")                       \
  X(kReplicaRefreshes, "replica_refreshes", "fresh rows sent to holders by sync rounds")          \
  X(kForwards, "forwards", "request keys forwarded (stale location)")                             \
  X(kLocalizeRequests, "localize_requests", "keys asked to be relocated or replicated here")      \
  X(kLocalizeRetries, "localize_retries", "own localize requests re-sent after bouncing back")    \
  X(kLateAccesses, "late_accesses", "remote accesses to a key whose intent was announced ahead")  \
  X(kUnannouncedAccesses, "unannounced_accesses", "remote accesses under a same-clock intent")

// Per-worker counters: kept unshared in each Worker, summed into the snapshot.
#define AUGUR_WORKER_COUNTERS(X)                                                \
  X(kLocalAccesses, "local_accesses", "key accesses served by the local store") \
  X(kRemoteAccesses, "remote_accesses", "key accesses that needed a message")

// Per-worker seconds (double), summed over workers.
#define AUGUR_WORKER_SECONDS(X)                                                                    \
  X(kWaitSeconds, "wait_seconds", "workers parked for their own operations (summed over workers)") \
  X(kBarrierSeconds, "barrier_seconds", "workers parked at barriers (summed over workers)")

namespace augur {

#define AUGUR_COUNTER_ENUMERATOR(id, name, doc) id,
enum class NodeCounter : uint8_t { AUGUR_NODE_COUNTERS(AUGUR_COUNTER_ENUMERATOR) };
enum class WorkerCounter : uint8_t { AUGUR_WORKER_COUNTERS(AUGUR_COUNTER_ENUMERATOR) };
enum class WorkerSeconds : uint8_t { AUGUR_WORKER_SECONDS(AUGUR_COUNTER_ENUMERATOR) };
#undef AUGUR_COUNTER_ENUMERATOR

// The reported names of one table, in enumerator order.
template <typename E>
struct CounterTable;

#define AUGUR_COUNTER_NAME(id, name, doc) name,
template <>
struct CounterTable<NodeCounter> {
  static constexpr std::array kNames = {AUGUR_NODE_COUNTERS(AUGUR_COUNTER_NAME)};
};
template <>
struct CounterTable<WorkerCounter> {
  static constexpr std::array kNames = {AUGUR_WORKER_COUNTERS(AUGUR_COUNTER_NAME)};
};
template <>
struct CounterTable<WorkerSeconds> {
  static constexpr std::array kNames = {AUGUR_WORKER_SECONDS(AUGUR_COUNTER_NAME)};
};
#undef AUGUR_COUNTER_NAME

// How many counters table E has.
template <typename E>
inline constexpr size_t kCounterCount = CounterTable<E>::kNames.size();

// The name result.json and the CSV report counter c under.
template <typename E>
constexpr const char* CounterName(E c) {
  return CounterTable<E>::kNames[static_cast<size_t>(c)];
}

// Every enumerator of table E, in table order: for (NodeCounter c : AllCounters<NodeCounter>()).
template <typename E>
constexpr std::array<E, kCounterCount<E>> AllCounters() {
  std::array<E, kCounterCount<E>> all{};
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<E>(i);
  return all;
}

}  // namespace augur

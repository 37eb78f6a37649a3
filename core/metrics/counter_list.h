// The table of a node's result counters: one line per counter, X(name, doc).
//
// Everything that lists counters expands these macros instead of spelling
// the names out: the atomics (NodeCounters), the snapshot (MetricsSnapshot
// and its +=), Node::Metrics(), result.json (experiments/report/run_result.cc)
// and the sum over TCP ranks (experiments/launch/result_merge.cc). A new
// counter is one line here, plus the place that increments it.
#pragma once

// Protocol counters: std::atomic<uint64_t> in NodeCounters, updated relaxed
// by workers and the protocol context.
#define AUGUR_NODE_COUNTERS(X)                                                  \
  X(messages_sent, "frames this node sent")                                     \
  X(bytes_sent, "encoded bytes of those frames")                                \
  X(messages_received, "frames this node handled")                              \
  X(bytes_received, "encoded bytes of those frames")                            \
  X(intents, "Intent() calls")                                                  \
  X(intent_keys, "keys named in them")                                          \
  X(relocations, "main copies handed over by this node")                        \
  X(replicas_created, "replicas this node received")                            \
  X(replicas_dropped, "replicas this node dropped")                             \
  X(replica_syncs, "replica deltas flushed to their main copy")                 \
  X(replica_polls, "replicas synced with a zero delta (key only)")              \
  X(replica_clips, "replica flushes clipped (replica_delta_bound.h)")           \
  X(replica_deferrals, "replicas a timer round skipped (significance filter)")  \
  X(sync_rounds, "timer sync rounds started (flow control may skip periods)")   \
  X(replica_refreshes, "fresh rows sent to holders by sync rounds")             \
  X(forwards, "request keys forwarded (stale location)")                        \
  X(localize_requests, "keys asked to be relocated or replicated here")         \
  X(late_accesses, "remote accesses to a key whose intent was announced ahead") \
  X(unannounced_accesses, "remote accesses under a same-clock intent (no notice)")

// Per-worker counters: kept unshared in each Worker, summed into the snapshot.
#define AUGUR_WORKER_COUNTERS(X)                              \
  X(local_accesses, "key accesses served by the local store") \
  X(remote_accesses, "key accesses that needed a message")

// Per-worker seconds (double), summed over workers.
#define AUGUR_WORKER_SECONDS(X)                                                    \
  X(wait_seconds, "workers parked for their own operations (summed over workers)") \
  X(barrier_seconds, "workers parked at barriers (summed over workers)")

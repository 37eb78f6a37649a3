#include "core/protocol/node.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/check.h"
#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/policy/classic_policy.h"

namespace augur {

Node::Node(NodeOptions options, Runtime& runtime)
    : store_(std::move(options.layout), std::move(options.init), options.optimizer,
             options.store_stripes),
      policy_(options.policy ? options.policy : std::make_shared<ClassicPolicy>()),
      cx_(runtime, store_, *policy_, counters_, options.workers, options.sync_period_seconds),
      routing_(cx_, relocation_, replication_, intents_, options.location_cache_capacity),
      relocation_(cx_, routing_, replication_, intents_, quiesce_, options.immediate_owner_updates),
      replication_(cx_, relocation_, routing_, intents_, options),
      intents_(cx_, relocation_, quiesce_, options.workers, options.act_immediately),
      barrier_(cx_),
      quiesce_(cx_, relocation_, intents_),
      watchdog_(cx_, routing_, relocation_, replication_, options.stall_timeout_seconds) {
  AUGUR_CHECK(options.workers > 0, "a node needs at least one worker");
  AUGUR_CHECK(options.stall_timeout_seconds >= 0, "stall timeout must not be negative");
  store_.SetSpinYield(runtime.StoreSpinYield());
  AUGUR_CHECK(cx_.num_nodes > 0 && cx_.self < cx_.num_nodes, "node %u of %u", cx_.self,
              cx_.num_nodes);
  AUGUR_CHECK(cx_.sync_period_seconds > 0, "sync period must be positive");
  AUGUR_CHECK(options.sync_significance >= 0, "sync significance must not be negative");
  NodePort& port = *this;  // the workers' only way into the engine
  for (WorkerId w = 0; w < options.workers; ++w)
    workers_.push_back(std::make_unique<Worker>(port, store_, runtime, cx_.parker(w), w,
                                                options.sampling,
                                                DeriveSeed(options.seed, cx_.self + 1, w)));
}

MetricsSnapshot Node::Metrics() {
  MetricsSnapshot s;
  for (NodeCounter c : AllCounters<NodeCounter>()) s[c] = counters_.Get(c);
  for (const auto& w : workers_) w->AddCountsTo(&s);
  LockGuard<Mutex> g(cx_.mu());
  intents_.AddLeadStats(&s);
  return s;
}

size_t Node::PendingOperations() {
  LockGuard<Mutex> g(cx_.mu());
  return cx_.ops.size();
}

size_t Node::DirectoryEntries() {
  LockGuard<Mutex> g(cx_.mu());
  return relocation_.entries() + routing_.entries() + replication_.entries();
}

void Node::OnTimer(uint64_t timer_id) {
  if (timer_id != EngineContext::kSyncTimer) return;
  Effects fx;
  const double started = cx_.runtime.Now();
  Status stall;
  {
    EngineLock g(cx_, fx);
    stall = watchdog_.Check(started);
    if (stall.ok()) {
      intents_.OnSyncRound(&fx);
      relocation_.OnSyncRound(&fx);
      replication_.TimerRound(started, &fx);
    }
  }
  cx_.Flush(fx);
  if (!stall.ok()) {
    cx_.runtime.Fail(stall);  // the run ends: no more rounds
    return;
  }
  // Pacing: the next round is at least kSyncPacing times this handler's own
  // time away, so building rounds takes at most 1/kSyncPacing of the
  // protocol context's time (a round over many replicas costs more than a
  // short period; back to back, they starved the workers of a 2-core node).
  // Runtimes whose clock does not move inside a handler (simulated and
  // virtual time) see 0 and keep the period exactly.
  const double spent = cx_.runtime.Now() - started;
  cx_.runtime.SetTimer(std::max(cx_.sync_period_seconds, kSyncPacing * spent),
                       EngineContext::kSyncTimer);
}

void Node::CheckStalls() {
  const double now = cx_.runtime.Now();
  Status stall;
  {
    LockGuard<Mutex> g(cx_.mu());
    stall = watchdog_.Check(now);
  }
  if (!stall.ok()) cx_.runtime.Fail(stall);
}

Result<FrameView> Node::DecodeFrom(NodeId from, std::span<const uint8_t> frame) {
  Result<FrameView> decoded = DecodeView(frame);
  if (!decoded.ok()) return decoded.status();
  Message& m = decoded->message;
  // A pull response's values go straight from the frame to the worker's
  // buffer; every other message gets its own copy.
  if (m.type != MessageType::kPullResponse) {
    m.values.resize(decoded->value_count());
    if (!m.values.empty())
      std::memcpy(m.values.data(), decoded->value_bytes.data(), decoded->value_bytes.size());
  }
  if (m.src != from || m.origin >= cx_.num_nodes) {
    return Status::Error(EngineContext::From(m) + ": sender fields (src " + std::to_string(m.src) +
                         ", origin " + std::to_string(m.origin) +
                         ") do not match connection to node " + std::to_string(from));
  }
  return decoded;
}

Status Node::OnMessage(NodeId from, std::span<const uint8_t> frame) {
  // Built only for an error: a frame that decodes formats nothing.
  const auto where = [from] { return "frame from node " + std::to_string(from); };
  Result<FrameHeader> header = DecodeHeader(frame);
  if (!header.ok()) return header.status().WithContext(where());
  if (header->type != MessageType::kBundle) {
    Result<FrameView> v = DecodeFrom(from, frame);
    if (!v.ok()) return v.status().WithContext(where());
    counters_.Add(NodeCounter::kMessagesReceived);
    counters_.Add(NodeCounter::kBytesReceived, frame.size());
    return Dispatch(*v);
  }
  // A bundle: every message is decoded and checked before any applies.
  Result<std::vector<std::span<const uint8_t>>> parts = SplitBundle(frame);
  if (!parts.ok()) return parts.status().WithContext(where());
  std::vector<FrameView> views;
  views.reserve(parts->size());
  for (std::span<const uint8_t> part : *parts) {
    Result<FrameView> v = DecodeFrom(from, part);
    if (!v.ok()) {
      return v.status().WithContext("bundled frame " + std::to_string(views.size() + 1) + " of " +
                                    where());
    }
    views.push_back(std::move(*v));
  }
  counters_.Add(NodeCounter::kMessagesReceived);
  counters_.Add(NodeCounter::kBytesReceived, frame.size());
  cx_.sends.Hold();  // the answers to all of it leave together
  Status s = Status::Ok();
  for (FrameView& v : views)
    if (s = Dispatch(v); !s.ok()) break;
  cx_.sends.Release();  // not from a destructor (SendQueue::Release)
  return s;
}

Status Node::OnMessages(NodeId from, std::span<const std::vector<uint8_t>> frames) {
  cx_.sends.Hold();
  Status s = Status::Ok();
  for (const std::vector<uint8_t>& frame : frames)
    if (s = OnMessage(from, frame); !s.ok()) break;
  cx_.sends.Release();  // not from a destructor (SendQueue::Release)
  return s;
}

void Node::HoldSends() { cx_.sends.Hold(); }

void Node::ReleaseSends() { cx_.sends.Release(); }

Status Node::Dispatch(FrameView& v) {
  const Message& m = v.message;
  switch (m.type) {
    case MessageType::kPullRequest:
    case MessageType::kPushRequest:
    case MessageType::kSetRequest:
    case MessageType::kLocalizeRequest:
    case MessageType::kSyncRequest:
      return routing_.HandleRequest(m);
    case MessageType::kPullResponse:
    case MessageType::kPushAck:
    case MessageType::kSetAck:
      return routing_.HandleResponse(
          m, m.type == MessageType::kPullResponse ? v.value_bytes : std::span<const uint8_t>());
    case MessageType::kBarrierArrive:
    case MessageType::kBarrierRelease:
      return barrier_.Handle(m);
    case MessageType::kHandover:
      return relocation_.HandleHandover(m);
    case MessageType::kOwnerUpdate:
      return relocation_.HandleOwnerUpdate(m);
    case MessageType::kReplicaGrant:
      return replication_.HandleReplicaGrant(m);
    case MessageType::kSyncResponse:
      return replication_.HandleSyncResponse(m);
    case MessageType::kBundle:  // DecodeView refuses it
      break;
  }
  return Status::Error(EngineContext::From(m) + ": unhandled type");
}

}  // namespace augur

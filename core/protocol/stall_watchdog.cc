#include "core/protocol/stall_watchdog.h"

#include <cstdio>

#include "core/api/node_port.h"
#include "core/base/check.h"
#include "core/base/format_number.h"
#include "core/protocol/relocation.h"
#include "core/protocol/replication.h"
#include "core/protocol/routing.h"

namespace augur {

namespace {

const char* OperationName(MessageType kind) {
  switch (kind) {
    case MessageType::kPullRequest:
      return "pull";
    case MessageType::kPushRequest:
      return "push";
    case MessageType::kSetRequest:
      return "set";
    case MessageType::kSyncRequest:
      return "sync round";
    default:
      return MessageTypeName(kind);
  }
}

std::string NodeName(NodeId n) { return "node " + std::to_string(n); }

}  // namespace

StallWatchdog::StallWatchdog(EngineContext& cx, Routing& routing, Relocation& relocation,
                             Replication& replication, double limit_seconds)
    : cx_(cx),
      routing_(routing),
      relocation_(relocation),
      replication_(replication),
      limit_seconds_(limit_seconds) {}

Status StallWatchdog::Check(double now) {
  if (limit_seconds_ <= 0 || fired_) return Status::Ok();
  for (WorkerId w = 0; w < cx_.ops.workers(); ++w) {
    double since = 0;
    const uint64_t waits = cx_.ops.WaitingFor(w, &since);
    if (waits == 0 || !(now - since > limit_seconds_)) continue;
    const uint64_t op = cx_.ops.Unfinished(w, waits);
    if (op == 0) continue;  // it completed; the worker has not run since
    fired_ = true;
    return Status::Error(Describe(w, waits == NodePort::kAllOperations, op, now - since));
  }
  double started = 0;
  const uint64_t round = replication_.PendingTimerRound(&started);
  if (round != 0 && now - started > limit_seconds_) {
    fired_ = true;
    return Status::Error(Describe(OperationTable::kNoWorker, false, round, now - started));
  }
  return Status::Ok();
}

std::string StallWatchdog::Describe(WorkerId worker, bool wait_all, uint64_t op,
                                    double waited) const {
  const OperationTable::PendingOp* p = cx_.ops.Find(op);
  AUGUR_CHECK(p != nullptr, "stalled operation %llu is not pending",
              static_cast<unsigned long long>(op));
  // Nine digits: a wait just past the limit must not print as the limit.
  char waited_digits[32];
  std::snprintf(waited_digits, sizeof(waited_digits), "%.9g", waited);
  const std::string waited_text =
      std::string(" has waited ") + waited_digits + " s (" + cx_.runtime.ClockName() + " time)";
  std::string s = "stalled operation: " + NodeName(cx_.self);
  if (worker == OperationTable::kNoWorker) {
    s += "'s timer sync round" + waited_text + " for the answers to its";
  } else {
    s += " worker " + std::to_string(worker) + waited_text +
         (wait_all ? " in WaitAll, for its oldest operation, a " : " for a ") +
         OperationName(p->kind) + " of";
  }
  s += ' ';
  s += std::to_string(p->keys) + (p->keys == 1 ? " key (" : " keys (") +
       std::to_string(p->remaining_keys) + " unanswered; operation " + std::to_string(op) +
       "), over the limit of " + FormatNumber(limit_seconds_) + " s (--stall-timeout)";
  for (uint32_t i = 0; i < p->first_key_count; ++i)
    s += (i == 0 ? "; first keys: " : "; ") + DescribeKey(p->first_keys[i], op);
  return s;
}

std::string StallWatchdog::DescribeKey(Key key, uint64_t op) const {
  const NodeId home = cx_.HomeOf(key);
  std::string s = "key " + std::to_string(key) + " (home " + NodeName(home) + ")";
  std::string facts;
  const auto add = [&facts](const std::string& fact) {
    facts += (facts.empty() ? "" : ", ") + fact;
  };
  bool held = false, main = false;
  cx_.store.With(key, false, [&](ParamStore::Entry& e) {
    held = true;
    main = e.kind == CopyKind::kMain;
  });
  if (main) add("main copy here");
  if (held && !main) {
    const NodeId* owner = replication_.ReplicaOwner(key);
    add("replica here" + (owner != nullptr ? " of " + NodeName(*owner) + "'s main copy" : ""));
  }
  if (const std::vector<KeyRequest>* queued = relocation_.InTransfer(key)) {
    bool ours = false;
    for (const KeyRequest& r : *queued) ours = ours || (r.origin == cx_.self && r.op_id == op);
    add("in transfer to this node with " + std::to_string(queued->size()) +
        " requests queued for it" + (ours ? " (this operation's among them)" : ""));
  }
  if (relocation_.LocalizeBounced(key)) add("its localize request bounced, to be sent again");
  if (home == cx_.self && !main) {
    const Relocation::Owner* owner = relocation_.DirectoryEntry(key);
    add(owner != nullptr ? "the directory names " + NodeName(owner->node) + " its owner"
                         : "the directory names no other owner");
  }
  if (const NodeId* to = relocation_.HandedOverTo(key))
    add("handed over to " + NodeName(*to) +
        (relocation_.DeferredOwner(key) != nullptr ? " (its home not told yet)" : ""));
  if (const NodeId* seen = routing_.CachedLocation(key)) add("last seen at " + NodeName(*seen));
  if (home != cx_.self && !main)
    add("requests for it go to " + NodeName(routing_.RemoteDestination(key)));
  return s + ": " + (facts.empty() ? "nothing known here" : facts);
}

}  // namespace augur

// The actors of one simulated node.
//
// Protocol actor: daemon; takes the node's parcels from its Inbox in due
//   order, one at a time: the frames of one sender, handled in send order by
//   Node::OnMessage, or a timer expiry for Node::OnTimer. With modelled
//   compute the parcel's handling cost (per frame: fixed + per byte) is
//   charged before its frames are handled, so replies leave after it; with
//   measured compute the CPU time used is charged after. A protocol error
//   aborts the whole simulation.
// NIC actor: daemon; Nic::Run (nic.h) sends the node's parcels.
// Wire actor: daemon; the permanent receiver of the node's wire mailbox: takes
//   each parcel as its transfer ends and pushes it into the node's Inbox,
//   due after the route latency from its sender.
// Worker actor: runs the job's body on one Worker, then reports finished.
// Parcels belong to the cluster's ParcelPool; the protocol actor gives each
// one back once handled.
#pragma once

#include <functional>

#include "core/api/worker.h"
#include "core/base/types.h"

namespace augur {

class SimCluster;

void ProtocolActor(SimCluster* cluster, NodeId node);
void NicActor(SimCluster* cluster, NodeId node);
void WireActor(SimCluster* cluster, NodeId node);
void WorkerActor(SimCluster* cluster, Worker* worker, const std::function<void(Worker&)>* body);

}  // namespace augur

// FaultInjector: `--fail-node R@T` in simulation.
//
// A daemon actor (on a host other than R's, so it survives) sleeps until
// simulated time T, turns node R's host off (SimGrid kills R's actors), and
// ends the run through SimCluster::Abort, recording which node failed when.
// Ending the run at once is deliberate: there is no failure detection or
// recovery yet, and workers waiting on the dead node would otherwise park
// forever. If every worker finishes before T, the daemon is killed with the
// simulation and the run succeeds.
#pragma once

#include "simulator/sim_options.h"

namespace augur {

class SimCluster;

// Spawns the injector. REQUIRES: failure.node < cluster nodes, nodes >= 2;
// called before the simulation runs.
void StartFaultInjector(SimCluster& cluster, NodeFailure failure);

}  // namespace augur

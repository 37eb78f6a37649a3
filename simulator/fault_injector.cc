#include "simulator/fault_injector.h"

#include <simgrid/s4u.hpp>
#include <string>

#include "core/base/check.h"
#include "simulator/sim_cluster.h"

namespace augur {

namespace sg4 = simgrid::s4u;

void StartFaultInjector(SimCluster& cluster, NodeFailure failure) {
  const uint32_t nodes = cluster.num_nodes();
  AUGUR_CHECK(nodes >= 2 && failure.node < nodes, "fail node %u of %u", failure.node, nodes);
  sg4::Host* victim = cluster.platform().hosts[failure.node];
  sg4::Host* watcher = cluster.platform().hosts[(failure.node + 1) % nodes];
  sg4::Actor::create("fault-injector", watcher, [&cluster, victim, failure] {
    sg4::Actor::self()->daemonize();
    sg4::this_actor::sleep_until(failure.at_seconds);
    victim->turn_off();
    cluster.Abort(Status::Ok(), NodeFailure{failure.node, sg4::Engine::get_clock()});
  });
}

}  // namespace augur

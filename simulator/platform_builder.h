// PlatformBuilder: builds the simulated cluster's SimGrid platform in C++.
//
// Generated platforms (SimGrid 3.32 zone API) use one split-duplex link per
// cable with the given per-link bandwidth and latency, plus a zero-latency
// loopback per host for self-sends (fat tree and dragonfly crash without it):
//   star       every host has one link to a central switch (2 links per route);
//   fat-tree   2 levels: 16 hosts per leaf switch, 4 top switches, each leaf
//              switch connected to each top switch by 4 links (full bisection);
//   dragonfly  4 hosts per router, G routers per chassis, 2 chassis per group,
//              G groups (G the smallest with 8*G*G >= nodes: SimGrid needs
//              routers per chassis >= groups).
// Fat tree and dragonfly round the host count up; the extra hosts ("spare-i")
// stay idle. An XML file is loaded as is and its hosts, sorted by name,
// become nodes 0..N-1; a host of no cores or speed, a link of no bandwidth
// or negative latency is an error (SimGrid aborts on them; a missing route
// between two hosts it still crashes on).
// Call once, from the thread that owns the Engine, before the simulation runs.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"
#include "simulator/sim_options.h"

namespace simgrid::s4u {
class Engine;
class Host;
}  // namespace simgrid::s4u

namespace augur {

struct Platform {
  std::vector<simgrid::s4u::Host*> hosts;  // node i runs on hosts[i]
  // SimOptions::shared_cores > 0: the one machine whose cores every node's
  // workers and protocol compute on (no links: it only computes). Else null.
  simgrid::s4u::Host* machine = nullptr;
  uint32_t total_hosts = 0;  // including spares
  std::string description;   // one line, for result.json
};

// cores_per_host: cores of each generated host (workers plus the protocol actor).
// Error names the platform and what is wrong.
Result<Platform> BuildPlatform(simgrid::s4u::Engine& engine, const SimOptions& options,
                               uint32_t nodes, int cores_per_host);

}  // namespace augur

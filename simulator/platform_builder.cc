#include "simulator/platform_builder.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <simgrid/s4u.hpp>

#include "core/base/format_number.h"

namespace augur {

namespace sg4 = simgrid::s4u;

namespace {

constexpr double kLoopbackBandwidth = 1e11;  // in-process copy: effectively free
constexpr unsigned kFatTreeHostsPerLeaf = 16;
constexpr unsigned kFatTreeTopSwitches = 4;
constexpr unsigned kDragonflyHostsPerRouter = 4;
constexpr unsigned kDragonflyChassisPerGroup = 2;

struct Shape {
  const SimOptions& options;
  uint32_t nodes;
  int cores;
};

std::string HostName(uint32_t id, uint32_t nodes) {
  return (id < nodes ? "node-" : "spare-") + std::to_string(id);
}

// Hosts of a cluster zone are created by its leaf callback, in leaf id order.
sg4::ClusterCallbacks ClusterCallbacksFor(const Shape& s, std::vector<sg4::Host*>* hosts) {
  auto netpoint = [s, hosts](sg4::NetZone* zone, const std::vector<unsigned long>&,
                             unsigned long id) {
    sg4::Host* h =
        zone->create_host(HostName(static_cast<uint32_t>(id), s.nodes), s.options.host_speed_flops);
    h->set_core_count(s.cores)->seal();
    if (id < s.nodes) (*hosts)[id] = h;
    return std::make_pair(h->get_netpoint(),
                          static_cast<simgrid::kernel::routing::NetPoint*>(nullptr));
  };
  auto loopback = [](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id) {
    return zone->create_link("loopback-" + std::to_string(id), kLoopbackBandwidth)
        ->set_latency(0)
        ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  };
  return sg4::ClusterCallbacks(netpoint, loopback, {});
}

uint32_t BuildStar(const Shape& s, std::vector<sg4::Host*>* hosts, sg4::Host** machine) {
  sg4::NetZone* zone = sg4::create_star_zone("cluster");
  if (s.options.shared_cores > 0) {
    *machine = zone->create_host("machine", s.options.host_speed_flops);
    (*machine)->set_core_count(static_cast<int>(s.options.shared_cores))->seal();
  }
  for (uint32_t i = 0; i < s.nodes; ++i) {
    sg4::Host* h = zone->create_host(HostName(i, s.nodes), s.options.host_speed_flops);
    h->set_core_count(s.cores)->seal();
    const std::string id = std::to_string(i);
    sg4::Link* up_down =
        zone->create_split_duplex_link("link-" + id, s.options.link_bandwidth_bytes_per_second)
            ->set_latency(s.options.link_latency_seconds)
            ->seal();
    zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr,
                    {{up_down, sg4::LinkInRoute::Direction::UP}}, true);
    sg4::Link* lo = zone->create_link("loopback-" + id, kLoopbackBandwidth)
                        ->set_latency(0)
                        ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    zone->add_route(h->get_netpoint(), h->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(lo)},
                    false);
    (*hosts)[i] = h;
  }
  zone->seal();
  return s.nodes;
}

uint32_t BuildFatTree(const Shape& s, std::vector<sg4::Host*>* hosts, std::string* desc) {
  const unsigned per_leaf = std::min<unsigned>(kFatTreeHostsPerLeaf, s.nodes);
  const unsigned leaves = (s.nodes + per_leaf - 1) / per_leaf;
  const unsigned links = std::max(1u, per_leaf / kFatTreeTopSwitches);
  const sg4::FatTreeParams params(2, {per_leaf, leaves}, {1, kFatTreeTopSwitches}, {1, links});
  sg4::NetZone* zone = sg4::create_fatTree_zone(
      "cluster", nullptr, params, ClusterCallbacksFor(s, hosts),
      s.options.link_bandwidth_bytes_per_second, s.options.link_latency_seconds,
      sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  *desc = "fat tree: " + std::to_string(leaves) + " leaf switches x " + std::to_string(per_leaf) +
          " hosts, " + std::to_string(kFatTreeTopSwitches) + " top switches x " +
          std::to_string(links) + " links each";
  return per_leaf * leaves;
}

uint32_t BuildDragonfly(const Shape& s, std::vector<sg4::Host*>* hosts, std::string* desc) {
  unsigned groups = 1;
  while (uint64_t{kDragonflyChassisPerGroup} * kDragonflyHostsPerRouter * groups * groups < s.nodes)
    ++groups;
  const unsigned routers = groups;  // SimGrid 3.32 crashes with fewer routers than groups
  const sg4::DragonflyParams params({groups, 1}, {kDragonflyChassisPerGroup, 1}, {routers, 1},
                                    kDragonflyHostsPerRouter);
  sg4::NetZone* zone = sg4::create_dragonfly_zone(
      "cluster", nullptr, params, ClusterCallbacksFor(s, hosts),
      s.options.link_bandwidth_bytes_per_second, s.options.link_latency_seconds,
      sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  *desc = "dragonfly: " + std::to_string(groups) + " groups x " +
          std::to_string(kDragonflyChassisPerGroup) + " chassis x " + std::to_string(routers) +
          " routers x " + std::to_string(kDragonflyHostsPerRouter) + " hosts";
  return groups * kDragonflyChassisPerGroup * routers * kDragonflyHostsPerRouter;
}

// What SimGrid aborts on (a host of no cores) or warns about and accepts (a
// negative link latency) while it parses: checked on the file's text first.
Status CheckAttributes(const std::string& path) {
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::regex kAttribute(R"re(\b(core|latency)\s*=\s*["']([^"']*)["'])re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kAttribute);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1], value = (*it)[2];
    char* end = nullptr;
    const long cores = std::strtol(value.c_str(), &end, 10);
    const char* problem = nullptr;
    if (name == "core" && (value.empty() || *end != '\0' || cores < 1))
      problem = "a host needs at least one core";
    if (name == "latency" && value.find('-') != std::string::npos)
      problem = "a link's latency must be >= 0";
    if (problem != nullptr) {
      const auto line = 1 + std::count(text.begin(), text.begin() + it->position(), '\n');
      return Status::Error(path + ":" + std::to_string(line) + ": " + name + "=\"" + value +
                           "\": " + problem);
    }
  }
  return Status::Ok();
}

// What SimGrid aborts on once the simulation runs: a host that computes at
// no speed, a link that carries nothing or arrives before it left.
Status CheckResources(const sg4::Engine& engine, const std::string& path) {
  for (const sg4::Host* h : engine.get_all_hosts()) {
    if (!(h->get_speed() > 0))
      return Status::Error("platform " + path + ": host '" + h->get_name() + "' has speed " +
                           FormatNumber(h->get_speed()) + " (must be > 0)");
  }
  for (const sg4::Link* l : engine.get_all_links()) {
    if (!(l->get_bandwidth() > 0))
      return Status::Error("platform " + path + ": link '" + l->get_name() + "' has bandwidth " +
                           FormatNumber(l->get_bandwidth()) + " (must be > 0)");
    if (!(l->get_latency() >= 0))
      return Status::Error("platform " + path + ": link '" + l->get_name() + "' has latency " +
                           FormatNumber(l->get_latency()) + " (must be >= 0)");
  }
  return Status::Ok();
}

// SimGrid aborts at the first message between two hosts with no route
// between them (and no latency): looked up before the run for every pair of
// the nodes in use, or, for more than kAllPairsUpTo nodes, every node to and
// from node 0.
constexpr size_t kAllPairsUpTo = 256;

bool Connected(const sg4::Host* from, const sg4::Host* to) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  from->route_to(to, links, &latency);
  return !links.empty() || latency > 0;
}

Status CheckRoutes(const std::vector<sg4::Host*>& hosts, const std::string& path) {
  auto check = [&path](const sg4::Host* a, const sg4::Host* b) -> Status {
    if (a == b || Connected(a, b)) return Status::Ok();
    return Status::Error("platform " + path + ": no route from host '" + a->get_name() +
                         "' to host '" + b->get_name() + "'");
  };
  const bool all_pairs = hosts.size() <= kAllPairsUpTo;
  for (const sg4::Host* a : hosts) {
    for (const sg4::Host* b : hosts) {
      if (!all_pairs && a != hosts[0] && b != hosts[0]) continue;
      if (Status s = check(a, b); !s.ok()) return s;
    }
  }
  return Status::Ok();
}

Result<Platform> LoadXml(sg4::Engine& engine, const std::string& path, uint32_t nodes) {
  if (Status s = CheckAttributes(path); !s.ok()) return s;
  try {
    engine.load_platform(path);
  } catch (const std::exception& e) {
    return Status::Error("cannot load platform " + path + ": " + e.what());
  }
  if (Status s = CheckResources(engine, path); !s.ok()) return s;
  Platform p;
  p.hosts = engine.get_all_hosts();
  std::sort(p.hosts.begin(), p.hosts.end(),
            [](const sg4::Host* a, const sg4::Host* b) { return a->get_name() < b->get_name(); });
  p.total_hosts = static_cast<uint32_t>(p.hosts.size());
  if (p.hosts.size() < nodes)
    return Status::Error("platform " + path + " has " + std::to_string(p.hosts.size()) +
                         " hosts but --nodes is " + std::to_string(nodes));
  p.hosts.resize(nodes);
  try {
    if (Status s = CheckRoutes(p.hosts, path); !s.ok()) return s;
  } catch (const std::exception& e) {
    return Status::Error("platform " + path + ": cannot look up its routes: " + e.what());
  }
  p.description = "XML platform " + path + " (hosts sorted by name)";
  return p;
}

}  // namespace

Result<Platform> BuildPlatform(sg4::Engine& engine, const SimOptions& options, uint32_t nodes,
                               int cores_per_host) {
  if (options.platform != "star" && options.platform != "fat-tree" &&
      options.platform != "dragonfly")
    return LoadXml(engine, options.platform, nodes);
  const Shape shape{options, nodes, cores_per_host};
  Platform p;
  p.hosts.assign(nodes, nullptr);
  try {
    if (options.platform == "star") {
      p.total_hosts = BuildStar(shape, &p.hosts, &p.machine);
      p.description = "star: " + std::to_string(nodes) + " hosts, one link each to one switch";
      if (p.machine != nullptr)
        p.description +=
            "; their compute on one machine of " + std::to_string(options.shared_cores) + " cores";
    } else if (options.platform == "fat-tree") {
      p.total_hosts = BuildFatTree(shape, &p.hosts, &p.description);
    } else {
      p.total_hosts = BuildDragonfly(shape, &p.hosts, &p.description);
    }
  } catch (const std::exception& e) {
    return Status::Error("cannot build platform " + options.platform + ": " + e.what());
  }
  return p;
}

}  // namespace augur

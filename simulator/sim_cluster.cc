#include "simulator/sim_cluster.h"

#include <unistd.h>
#include <xbt/log.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <limits>
#include <simgrid/s4u.hpp>

#include "core/base/check.h"
#include "simulator/fault_injector.h"
#include "simulator/inbox.h"
#include "simulator/nic.h"
#include "simulator/node_actors.h"
#include "simulator/sim_runtime.h"

namespace augur {

namespace sg4 = simgrid::s4u;

namespace {
constexpr uint64_t kProgressEvery = 1024;  // time steps between progress hook calls
constexpr uint64_t kWakeupSeed = 0x57A4E;  // WakeupDelay's streams (one per node)
}  // namespace

SimCluster::SimCluster(SimClusterOptions options)
    : options_(std::move(options)), compute_(options_.sim.compute, options_.sim.costs) {}

SimCluster::~SimCluster() = default;

Result<std::unique_ptr<SimCluster>> SimCluster::Create(SimClusterOptions options) {
  AUGUR_CHECK(options.nodes > 0, "a cluster needs at least one node");
  if (sg4::Engine::is_initialized())
    return Status::Error("a SimGrid engine already exists in this process (one run per process)");
  std::unique_ptr<SimCluster> c(new SimCluster(std::move(options)));
  if (Status s = c->Init(); !s.ok()) return s;
  return c;
}

Status SimCluster::Init() {
  const SimOptions& sim = options_.sim;
  // Context factory and log level must be known when the engine starts.
  engine_args_ = {"augur", "--cfg=contexts/factory:" + sim.context_factory,
                  "--log=root.thres:warning", "--log=xbt_cfg.thres:warning"};
  std::vector<char*> argv;
  for (std::string& a : engine_args_) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(engine_args_.size());
  engine_ = std::make_unique<sg4::Engine>(&argc, argv.data());
  // Ctrl-C ends a simulation as it ends any run: one line and the shell's
  // code for SIGINT (SimGrid's own handler dumps its actors and exits 1).
  std::signal(SIGINT, [](int) {
    static const char kLine[] = "augur: interrupted (SIGINT): the simulation stopped\n";
    (void)!write(STDERR_FILENO, kLine, sizeof(kLine) - 1);
    _exit(130);
  });
  sg4::Engine::set_config("network/model:" + sim.network_model);
  sg4::Engine::set_config("network/crosstraffic:0");
  if (!sim.trace_file.empty()) {
    sg4::Engine::set_config("tracing:yes");
    sg4::Engine::set_config("tracing/filename:" + sim.trace_file);
    sg4::Engine::set_config("tracing/uncategorized:yes");
  }
  const int cores = options_.sim.host_cores > 0
                        ? static_cast<int>(options_.sim.host_cores)
                        : static_cast<int>(options_.node.workers) + 1;  // workers + protocol
  Result<Platform> p = BuildPlatform(*engine_, sim, options_.nodes, cores);
  if (!p.ok()) return p.status();
  platform_ = std::move(*p);
  // Latency is applied per route by the Nic (nic.h), so SimGrid's flows only
  // model transmission and sharing.
  for (sg4::Link* link : engine_->get_all_links()) {
    link_latency_[link] = link->get_latency();
    link->set_latency(0);
  }
  // A node whose workers take every core handles what arrives once its
  // scheduler gives the protocol one (costs_file.h, wakeup_delay_seconds).
  // On a shared machine every node's workers compete for its cores.
  const uint64_t competing =
      uint64_t{options_.node.workers} * (platform_.machine != nullptr ? options_.nodes : 1);
  const uint64_t compute_cores =
      platform_.machine != nullptr ? sim.shared_cores : static_cast<uint64_t>(cores);
  if (competing >= compute_cores) wakeup_mean_ = sim.costs.wakeup_delay_seconds;
  // Time-sliced (more nodes' processes than cores), where calibrate fitted a
  // delay to such a run: every message waits, busy cores or not. The real
  // scheduler is not work-conserving at this scale: a woken thread waits for
  // the core it last ran on while another idles (3 zipf processes on 2 cores
  // left 17% of the cores idle, the simulated machine under 5%).
  if (sim.time_sliced && sim.costs.time_sliced_wakeup_delay_seconds >= 0) {
    wakeup_mean_ = sim.costs.time_sliced_wakeup_delay_seconds;
    wakeup_always_ = true;
  }
  for (NodeId n = 0; n < options_.nodes; ++n) {
    wakeup_rngs_.emplace_back(DeriveSeed(kWakeupSeed, n));
    inboxes_.push_back(std::make_unique<Inbox>());
    wires_.push_back(sg4::Mailbox::by_name("wire-" + std::to_string(n)));
    transfers_into_.push_back(0);
    worker_wakeups_.push_back(0);
    charged_flops_.push_back(0);
    nics_.push_back(std::make_unique<Nic>(*this, n, options_.nodes));
    runtimes_.push_back(std::make_unique<SimRuntime>(*this, compute_, n, options_.nodes));
    nodes_.push_back(std::make_unique<Node>(options_.node, *runtimes_.back()));
  }
  return Status::Ok();
}

void SimCluster::SetProgressHook(std::function<void(double)> hook) {
  progress_hook_ = std::move(hook);
}

void SimCluster::Send(NodeId from, NodeId to, std::vector<uint8_t> frame) {
  const uint64_t bytes = frame.size();
  ++stats_.messages;
  stats_.bytes += bytes;
  nics_[from]->Queue(to, std::move(frame));
}

void SimCluster::StartTimer(NodeId node, double delay_seconds, uint64_t timer_id) {
  Parcel* p = parcels_.Take();
  p->from = node;
  p->timer = true;
  p->timer_id = timer_id;
  inboxes_[node]->Push(p, sg4::Engine::get_clock() + std::max(0.0, delay_seconds));
}

double SimCluster::ChargedCpuSeconds(NodeId n) const {
  return charged_flops_[n] / ComputeHost(n)->get_speed();
}

double SimCluster::WakeupDelay(NodeId n) {
  if (wakeup_mean_ <= 0) return 0;
  // Only while every core computes: an idle core takes the message at once.
  const sg4::Host* host = ComputeHost(n);
  if (!wakeup_always_ && host->get_load() < 0.999 * host->get_speed() * host->get_core_count())
    return 0;
  return -wakeup_mean_ * std::log1p(-wakeup_rngs_[n].Uniform());  // Uniform() < 1
}

SimCluster::Route SimCluster::RouteBetween(NodeId from, NodeId to) const {
  std::vector<sg4::Link*> links;
  double ignored = 0;  // SimGrid's own sum: 0, the links' latencies were taken out
  platform_.hosts[from]->route_to(platform_.hosts[to], links, &ignored);
  Route route;
  route.bandwidth = std::numeric_limits<double>::infinity();
  for (const sg4::Link* link : links) {
    auto it = link_latency_.find(link);
    if (it != link_latency_.end()) route.latency += it->second;
    route.bandwidth = std::min(route.bandwidth, link->get_bandwidth());
  }
  return route;
}

void SimCluster::Abort(Status error, std::optional<NodeFailure> failure) {
  if (aborted_) return;
  aborted_ = true;
  if (!error.ok()) first_error_ = std::move(error);
  stats_.failure = failure;
  sg4::Actor::kill_all();
}

Status SimCluster::Run(const std::function<void(Worker&)>& body) {
  for (NodeId n = 0; n < num_nodes(); ++n) {
    sg4::Host* host = platform_.hosts[n];
    sg4::Host* compute = ComputeHost(n);
    sg4::Actor::create("protocol-" + std::to_string(n), compute,
                       [this, n] { ProtocolActor(this, n); });
    for (uint32_t lane = 0; lane < options_.sim.nic_lanes; ++lane)
      sg4::Actor::create("nic-" + std::to_string(n) + "-" + std::to_string(lane), host,
                         [this, n] { NicActor(this, n); });
    wires_[n]->set_receiver(
        sg4::Actor::create("wire-" + std::to_string(n), host, [this, n] { WireActor(this, n); }));
    for (WorkerId w = 0; w < nodes_[n]->num_workers(); ++w) {
      Worker* worker = &nodes_[n]->worker(w);
      sg4::Actor::create("worker-" + std::to_string(n) + "-" + std::to_string(w), compute,
                         [this, worker, &body] { WorkerActor(this, worker, &body); });
    }
  }
  if (options_.sim.fail_node.has_value()) StartFaultInjector(*this, *options_.sim.fail_node);
  if (progress_hook_) {
    auto steps = std::make_shared<uint64_t>(0);
    sg4::Engine::on_time_advance_cb([this, steps](double) {
      if (++*steps % kProgressEvery == 0) progress_hook_(sg4::Engine::get_clock());
    });
  }
  engine_->run();
  stats_.simulated_seconds = sg4::Engine::get_clock();
  for (const auto& nic : nics_) {
    stats_.comms += nic->transfers();
  }
  if (!first_error_.ok()) return first_error_;
  if (stats_.failure.has_value()) return Status::Ok();
  uint32_t total_workers = 0;
  for (const auto& node : nodes_) total_workers += node->num_workers();
  if (stats_.workers_finished != total_workers)
    return Status::Error("simulation deadlocked at " + std::to_string(stats_.simulated_seconds) +
                         " s: " + std::to_string(total_workers - stats_.workers_finished) +
                         " workers parked with nothing left to wake them (protocol bug)");
  return Status::Ok();
}

}  // namespace augur

// `augur sim`: the whole cluster in a SimGrid simulation (simulator/).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/config/units.h"
#include "experiments/cli/command.h"
#include "experiments/cli/dir_lock.h"
#include "experiments/cli/result_summary.h"
#include "experiments/cli/run_flags.h"
#include "experiments/cli/sim_recovery.h"
#include "experiments/config/model_memory.h"
#include "experiments/drivers/sim_driver.h"
#include "simulator/costs_file.h"

namespace augur {

namespace {

struct SimFlagText {  // unit-bearing and enum flags, parsed after CLI11
  std::string link_bandwidth = "10Gbps";
  std::string link_latency = "5us";
  std::string host_speed = "1Gf";
  uint32_t host_cores = 0;
  std::string compute = "model";
  std::string fail_node;
  bool no_progress = false;
  bool time_sliced = false;
  std::string wakeup_delay;  // empty: the costs file's
};

void AddSimFlags(CLI::App& app, SimOptions* o, SimFlagText* t) {
  app.add_option("--platform", o->platform,
                 "star | fat-tree | dragonfly | FILE.xml (SimGrid platform; its hosts sorted by "
                 "name become the nodes)")
      ->capture_default_str();
  app.add_option("--preset", o->preset,
                 "Link preset: ethernet-10g (10 Gbit/s, 25 us per link) | infiniband-100g "
                 "(100 Gbit/s, 0.6 us per link); --link-* flags override it");
  app.add_option("--link-bandwidth", t->link_bandwidth, "Bandwidth of every link (e.g. 10Gbps)")
      ->capture_default_str();
  app.add_option("--link-latency", t->link_latency,
                 "Latency of every link (e.g. 5us); a star route crosses 2 links")
      ->capture_default_str();
  app.add_option("--host-speed", t->host_speed,
                 "Host speed; modelled compute is in seconds at 1Gf (e.g. 2Gf halves it)")
      ->capture_default_str();
  app.add_option("--host-cores", t->host_cores,
                 "Cores per host, shared by its workers, protocol handling and sync rounds "
                 "(default: workers + 1, or from --costs)");
  app.add_option("--compute", t->compute,
                 "model: calibrated costs, deterministic | hybrid: real update runs too, modelled "
                 "cost charged, deterministic | measured: charge the measured CPU time of the "
                 "real code (realistic, NOT bit-reproducible)")
      ->capture_default_str();
  app.add_option("--costs", o->costs_file,
                 "Costs file written by `augur calibrate`: its worker cost per sample (per key "
                 "for zipf) and message costs; alone (no --preset/--link-*) it models the nodes "
                 "on this machine: its loopback link, its cores split among the nodes (fewer "
                 "cores than nodes: the nodes share them, --shared-cores); with --preset or "
                 "--link-* each host has this machine's cores. --host-cores, --host-speed and "
                 "--compute-per-sample/--compute-per-key override");
  app.add_option("--shared-cores", o->shared_cores,
                 "The nodes are processes of one machine of C cores: every node's workers and "
                 "protocol handling compute on those C cores (at most one each), shared as the "
                 "OS shares them, a waiting node's core going to the others; each node keeps "
                 "its own link. Star platform only. Default: off, or this machine's cores when "
                 "--costs alone models more nodes than it has cores");
  app.add_flag("--time-sliced", t->time_sliced,
               "The nodes stand for processes time-sliced on fewer cores than there are "
               "processes (as `augur launch --local N` with N above the cores): each sample costs "
               "the costs file's worker cost measured that way (calibrate's time-sliced run). On "
               "by default when --costs alone models more nodes than this machine has cores");
  app.add_option("--fail-node", t->fail_node,
                 "R@T: turn node R's host off at simulated time T (e.g. 3@1ms or 3@0.5s); the "
                 "run ends there with exit code 1");
  app.add_option("--trace", o->trace_file, "Write SimGrid's Paje trace of the run to FILE");
  app.add_option("--network-model", o->network_model,
                 "SimGrid network model for bandwidth sharing: CM02 (size/bandwidth) | LV08 "
                 "(SimGrid's default; TCP-like bandwidth factor). Link latency is added per route "
                 "by the simulated NIC in both cases (LV08's ~13x latency factor is not applied)")
      ->capture_default_str();
  app.add_option("--context-factory", o->context_factory,
                 "SimGrid actor contexts: raw (fastest) | thread (use under sanitizers) | ucontext")
      ->capture_default_str();
  app.add_option("--wakeup-delay", t->wakeup_delay,
                 "Mean wait (e.g. 500us, 0 for none) of a message to a node whose cores are all "
                 "busy with its workers before the node handles it (the scheduler giving the "
                 "protocol a core); each wait drawn from an exponential distribution. Default: "
                 "the costs file's, calibrated from real sync round trips; 0 without --costs. With "
                 "--time-sliced every message waits (the other nodes' processes hold the cores), "
                 "and the default is the costs file's time-sliced delay, fitted to a real "
                 "time-sliced run's epochs");
  app.add_option("--nic-lanes", o->nic_lanes,
                 "Concurrent transfers per node's NIC (frames to one destination are merged and "
                 "sent one parcel at a time; 1 = a strictly serial NIC)")
      ->capture_default_str();
  app.add_flag("--no-progress", t->no_progress, "No progress line on stderr");
}

// The machine part of a costs file (see --costs): link and cores, unless flags say otherwise.
void ApplyMachineCosts(const CLI::App& app, const SimCosts& costs, uint32_t nodes, SimOptions* o) {
  const bool cluster =
      !o->preset.empty() || app.count("--link-bandwidth") > 0 || app.count("--link-latency") > 0;
  if (!cluster) {  // the nodes on this machine's loopback: a star route crosses 2 links
    if (costs.loopback_bandwidth_bytes_per_second > 0)
      o->link_bandwidth_bytes_per_second = costs.loopback_bandwidth_bytes_per_second;
    if (costs.loopback_latency_seconds >= 0)
      o->link_latency_seconds = costs.loopback_latency_seconds / 2;
  }
  if (costs.cores == 0 || app.count("--host-cores") > 0) return;
  if (cluster) {
    o->host_cores = costs.cores;
  } else if (costs.cores >= nodes) {
    o->host_cores = costs.cores / nodes;
  } else {  // more nodes than cores: their processes share the machine's cores, time-sliced
    o->host_cores = 1;
    if (app.count("--shared-cores") == 0) o->shared_cores = costs.cores;
    o->time_sliced = costs.time_sliced_processes > 0;  // its worker cost, where measured
  }
}

// The calibrated worker cost replaces the workload's default unless
// --compute-per-key / --compute-per-sample gives one; with the processes
// time-sliced (SimOptions::time_sliced), the one calibrate measured that way.
void ApplyWorkerCost(const CLI::App& app, const SimCosts& costs, bool time_sliced,
                     RunConfig* config) {
  const double per_key = time_sliced ? costs.seconds_per_key_time_sliced : costs.seconds_per_key;
  const double per_sample =
      time_sliced ? costs.seconds_per_sample_time_sliced : costs.seconds_per_sample;
  if (per_key >= 0 && app.count("--compute-per-key") == 0)
    config->zipf.compute_seconds_per_key = per_key;
  if (per_sample >= 0 && app.count("--compute-per-sample") == 0) {
    config->compute_seconds_per_sample = per_sample;
    config->kge.compute_seconds_per_sample = config->wv.compute_seconds_per_sample =
        config->mf.compute_seconds_per_sample = per_sample;
  }
}

Status FinishSimOptions(const CLI::App& app, const SimFlagText& t, RunConfig* config,
                        SimOptions* o) {
  if (!o->preset.empty()) {
    const NetworkPreset* p = FindNetworkPreset(o->preset);
    if (p == nullptr)
      return Status::Error("--preset '" + o->preset + "' is unknown (expected " +
                           NetworkPresetNames() + ")");
    o->link_bandwidth_bytes_per_second = p->link_bandwidth_bytes_per_second;
    o->link_latency_seconds = p->link_latency_seconds;
  }
  if (o->preset.empty() || app.count("--link-bandwidth") > 0) {
    Result<double> bw = ParseBandwidth(t.link_bandwidth);
    if (!bw.ok()) return bw.status().WithContext("--link-bandwidth");
    o->link_bandwidth_bytes_per_second = *bw;
  }
  if (o->preset.empty() || app.count("--link-latency") > 0) {
    Result<double> lat = ParseDuration(t.link_latency);
    if (!lat.ok()) return lat.status().WithContext("--link-latency");
    o->link_latency_seconds = *lat;
  }
  Result<double> speed = ParseHostSpeed(t.host_speed);
  if (!speed.ok()) return speed.status().WithContext("--host-speed");
  o->host_speed_flops = *speed;
  Result<ComputeMode> mode = ParseComputeMode(t.compute);
  if (!mode.ok()) return mode.status();
  o->compute = *mode;
  if (!t.fail_node.empty()) {
    Result<NodeFailure> f = ParseNodeFailure(t.fail_node);
    if (!f.ok()) return f.status();
    o->fail_node = *f;
  }
  o->progress = !t.no_progress;
  if (!o->trace_file.empty()) {  // SimGrid opens it at start-up and does not say why it cannot
    const std::filesystem::path trace(o->trace_file);
    std::error_code ec;
    if (trace.has_parent_path()) std::filesystem::create_directories(trace.parent_path(), ec);
    std::ofstream probe(trace, std::ios::app);
    if (ec || !probe)
      return Status::Error("--trace: cannot write " + o->trace_file + ": " +
                           (ec ? ec.message() : std::string(std::strerror(errno))));
  }
  if (!o->costs_file.empty()) {
    Result<SimCosts> costs = ReadCostsFile(o->costs_file);
    if (!costs.ok()) return costs.status().WithContext("--costs");
    if (!costs->workload.empty() && costs->workload != config->workload)
      return Status::Error("--costs " + o->costs_file + " was calibrated for workload '" +
                           costs->workload + "', not '" + config->workload + "'");
    const bool zipf = config->workload == "zipf";
    if (!costs->workload.empty() && (zipf ? costs->seconds_per_key : costs->seconds_per_sample) < 0)
      return Status::Error("--costs " + o->costs_file + " names workload '" + costs->workload +
                           "' but has no worker cost (" +
                           (zipf ? "seconds_per_key" : "seconds_per_sample") +
                           " missing or negative): calibrate again with `augur calibrate "
                           "--workload " +
                           costs->workload + "`");
    o->costs = *costs;
    // The calibrated start-up cost has no flag of its own: it comes with the file.
    config->first_epoch_extra_seconds_per_sample = costs->first_epoch_extra_seconds_per_sample;
    config->zipf.first_epoch_extra_seconds_per_key = costs->first_epoch_extra_seconds_per_sample;
    ApplyMachineCosts(app, *costs, config->nodes, o);
    if (t.time_sliced) {
      if (costs->time_sliced_processes == 0)
        return Status::Error(
            "--time-sliced: costs file " + o->costs_file + " has no time-sliced worker cost (" +
            (costs->time_sliced_cost_source.empty() ? std::string("calibrated before it was "
                                                                  "measured")
                                                    : costs->time_sliced_cost_source) +
            "); calibrate again with this build");
      o->time_sliced = true;
    }
    ApplyWorkerCost(app, *costs, o->time_sliced, config);
  } else if (t.time_sliced) {
    return Status::Error(
        "--time-sliced needs --costs (a costs file with a time-sliced worker "
        "cost, from `augur calibrate`)");
  }
  if (!t.wakeup_delay.empty()) {
    Result<double> d = ParseDuration(t.wakeup_delay);
    if (!d.ok()) return d.status().WithContext("--wakeup-delay");
    if (!(*d < 1)) return Status::Error("--wakeup-delay must be below 1s");
    // The delay in use: with --time-sliced, the time-sliced one.
    (o->time_sliced ? o->costs.time_sliced_wakeup_delay_seconds : o->costs.wakeup_delay_seconds) =
        *d;
    (o->time_sliced ? o->costs.time_sliced_wakeup_delay_source : o->costs.wakeup_delay_source) =
        "--wakeup-delay";
  }
  if (app.count("--host-cores") > 0) {
    if (t.host_cores == 0) return Status::Error("--host-cores must be in [1, 4096]");
    o->host_cores = t.host_cores;
  }
  return o->Validate(config->nodes);
}

}  // namespace

// SimGrid gives every actor a stack of its own with a guard page: two memory
// maps each, and the kernel caps a process's maps (vm.max_map_count). A
// cluster past that cap aborted in SimGrid ("Failed to protect stack"); it is
// refused up front. A node runs its workers, its protocol actor, its wire
// actor and one actor per NIC lane (simulator/sim_cluster.cc).
Status CheckActorCapacity(const RunConfig& config, const SimOptions& sim) {
  std::ifstream in("/proc/sys/vm/max_map_count");
  uint64_t max_maps = 0;
  if (!(in >> max_maps) || max_maps == 0) return Status::Ok();  // unknown: SimGrid will tell
  const uint64_t actors = uint64_t{config.nodes} * (config.workers + 2 + sim.nic_lanes);
  constexpr uint64_t kOtherMaps = 4096;  // the binary, its libraries, heap arenas
  if (2 * actors + kOtherMaps <= max_maps) return Status::Ok();
  return Status::Error("--nodes " + std::to_string(config.nodes) + " x (--workers " +
                       std::to_string(config.workers) + " + " + std::to_string(2 + sim.nic_lanes) +
                       ") = " + std::to_string(actors) + " simulated actors need about " +
                       std::to_string(2 * actors + kOtherMaps) +
                       " memory maps, above this machine's vm.max_map_count " +
                       std::to_string(max_maps) +
                       ": fewer nodes or workers (or raise it: sysctl -w vm.max_map_count=N)");
}

CommandFn AddSimCommand(CLI::App& root) {
  auto config = std::make_shared<RunConfig>();
  auto sim = std::make_shared<SimOptions>();
  auto text = std::make_shared<SimFlagText>();
  CLI::App* app = root.add_subcommand(
      "sim",
      "Run N nodes x T workers of the real core in a SimGrid simulation of a cluster "
      "(simulated network and clock; epoch times are simulated seconds)");
  AddRunFlags(*app, config.get());
  AddWorkloadFlags(*app, config.get());
  AddSimFlags(*app, sim.get(), text.get());
  auto check = std::make_shared<bool>(false);
  AddCheckFlagsFlag(*app, check.get());
  return [config, sim, text, app, check]() -> int {
    config->backend = "sim";
    if (Status s = config->Validate(); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagsApply(*app, *config); !s.ok()) return UsageError(s.message());
    if (Status s = CheckFlagModelMemory(*config); !s.ok()) return UsageError(s.message());
    if (Status s = FinishSimOptions(*app, *text, config.get(), sim.get()); !s.ok())
      return UsageError(s.message());
    if (Status s = CheckActorCapacity(*config, *sim); !s.ok()) return UsageError(s.message());
    if (*check) return 0;
    Result<std::unique_ptr<Job>> job = MakeJob(*config);
    if (!job.ok()) return UsageError(job.status().message());
    std::vector<DirLock> locks;  // --out and --checkpoint-dir, until the run ends
    if (Status s = LockRunDirs(*config, &locks); !s.ok()) return UsageError(s.message());
    bool bad_platform = false;
    Result<SimOutcome> r = RunOnSim(*config, *sim, **job, &bad_platform);
    if (!r.ok())
      return bad_platform ? UsageError(r.status().message()) : RunError(r.status().message());
    nlohmann::json cfg = config->ToJson();
    cfg.erase("network");  // the loopback model's section; the sim's network is under "sim"
    cfg["sim"] = sim->ToJson();
    nlohmann::json j = r->result.ToJson(cfg);
    if (r->failure.has_value() && !config->checkpoint_dir.empty()) {
      // Recover from the last checkpoint (sim_recovery.h); report the restarted run.
      // That child process locks the checkpoint directory (and OUT/recovery) itself.
      locks.clear();
      Result<nlohmann::json> recovered = RecoverSimRun(*app, *config, *sim->fail_node, j);
      if (!recovered.ok()) return RunError(*r->failure + "; " + recovered.status().message());
      j = std::move(*recovered);
    }
    if (!config->out_dir.empty()) {
      if (Status s = WriteResultJson(config->out_dir, j); !s.ok()) return RunError(s.message());
    }
    if (r->failure.has_value() && config->checkpoint_dir.empty()) return RunError(*r->failure);
    PrintResultSummary(j, stdout);
    if (!config->out_dir.empty())
      std::printf("  result: %s/result.json\n", config->out_dir.c_str());
    const auto verified = j.find("verified");
    return DivergenceExitCode(
        j, (verified != j.end() && verified->is_boolean() && !verified->get<bool>()) ? 1 : 0);
  };
}

}  // namespace augur

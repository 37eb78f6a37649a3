// `augur launch`: starts a TCP cluster of `augur run` processes, locally or
// over ssh, streams their output with a rank prefix and merges their results.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "backends/tcp/crypto.h"
#include "backends/tcp/free_port.h"
#include "backends/tcp/handshake.h"
#include "core/config/units.h"
#include "experiments/cli/command.h"
#include "experiments/cli/result_summary.h"
#include "experiments/cli/run_flags.h"
#include "experiments/cli/tcp_flags.h"
#include "experiments/config/model_memory.h"
#include "experiments/launch/cpu_pinning.h"
#include "experiments/launch/hostfile.h"
#include "experiments/launch/launch_env.h"
#include "experiments/launch/process_group.h"
#include "experiments/launch/result_merge.h"
#include "experiments/launch/spawn.h"
#include "experiments/report/run_result.h"

namespace augur {

namespace {

struct LaunchFlags {
  uint32_t local = 0;
  std::string hostfile;
  uint16_t port = 0;
  std::string secret_file;
  std::string cluster_id;
  std::string ssh = "ssh -o BatchMode=yes";
  std::string augur_path;
  bool run_self = false;  // the local ranks exec /proc/self/exe (Launch sets it)
  std::string kill_after = "45s";
  // A program's ranks that have not begun to join by then (augur.join) are
  // named and every rank is killed; 0: wait forever. Program mode only.
  std::string join_timeout = "120s";
  bool join_timeout_given = false;
  uint32_t restarts = 0;  // --restart-on-failure N
  bool pin = false;       // --pin: rank r on the r-th allowed CPU (--local only)
  std::string out;        // --out: program mode's OUT (flags mode: --out after --)
  std::vector<std::string> run_flags;
  bool check_flags = false;  // --check-flags (command.h)
};

// Program mode: what follows `--` is a program to start once per rank
// (torchrun style) rather than `augur run` flags.
bool IsProgram(const std::vector<std::string>& after_dash) {
  return !after_dash.empty() && !after_dash[0].empty() && after_dash[0][0] != '-';
}

// The flags launch sets itself; they must not appear after `--`.
const char* kReserved[] = {"--rank", "--nodes", "--coordinator", "--secret-file", "--cluster-id"};

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Checks the pass-through run flags by parsing them as `augur run` would.
// `local`: the ranks started on this machine (--local N; 0 with --hostfile,
// whose hosts each hold one rank's share of the model).
Status CheckRunFlags(const std::vector<std::string>& flags, uint32_t nodes, uint32_t local,
                     std::string* out_dir, std::string* checkpoint_dir,
                     std::vector<std::string>* passed) {
  CLI::App app("run");
  RunConfig config;
  TcpFlagText tcp;
  AddRunFlags(app, &config);
  AddWorkloadFlags(app, &config);
  AddTcpFlags(app, &tcp);
  try {
    std::vector<std::string> reversed(flags.rbegin(), flags.rend());
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return Status::Error(std::string("run flags after --: ") + e.what());
  }
  for (const char* f : kReserved) {
    if (app.count(f) > 0) return Status::Error(std::string(f) + " is set by launch; drop it");
  }
  config.nodes = nodes;
  config.backend = "tcp";
  if (Status s = FinishRunConfig(RunFlagText{}, &config); !s.ok()) return s;
  if (Status s = CheckFlagsApply(app, config); !s.ok()) return s;
  if (Status s = CheckFlagModelMemory(config, std::max(local, 1u)); !s.ok()) return s;
  const std::pair<const char*, const std::string*> durations[] = {
      {"--peer-timeout", &tcp.peer_timeout},
      {"--emulate-latency", &tcp.emulate_latency},
      {"--io-slice", &tcp.io_slice}};
  for (const auto& [flag, text] : durations) {
    Result<double> v = ParseDuration(*text);
    if (!v.ok()) return v.status().WithContext(flag);
    if (std::string(flag) == "--peer-timeout" && !(*v > 0))
      return Status::Error("--peer-timeout must be > 0");
  }
  *out_dir = config.out_dir;
  *checkpoint_dir = config.checkpoint_dir;
  for (size_t i = 0; i < flags.size(); ++i) {  // launch gives each rank its --out
    if (flags[i] == "--out") {
      ++i;
    } else if (flags[i].rfind("--out=", 0) != 0) {
      passed->push_back(flags[i]);
    }
  }
  return Status::Ok();
}

// How long the ranks had to stop after a failure, or to begin joining.
struct RankTimeouts {
  double kill_after = 45;
  double join = 0;  // 0: no limit
};

// Starts one `augur run` (or the program) per host and waits; the exit
// codes in rank order (empty if a rank could not be started). Each rank's
// output is watched for its joining line (tcp_options.h JoiningMarker):
// *join_failure says why the ranks were stopped early (one that exited
// before it joined, or ranks that had not begun to join within
// timeouts.join), else is empty. coordinator_fd >= 0: rank 0's listening
// socket, bound here, which rank 0 inherits (--coordinator-fd).
std::vector<int> RunRanks(const LaunchFlags& f, const std::vector<std::string>& hosts,
                          const std::vector<std::string>& passed, const std::string& coordinator,
                          int coordinator_fd, const std::string& out_dir,
                          const RankTimeouts& timeouts, const std::vector<int>& cpus,
                          std::string* join_failure) {
  std::string program = "augur run";  // as messages name a rank's program
  if (IsProgram(f.run_flags)) {
    program.clear();
    for (const std::string& a : f.run_flags) program += (program.empty() ? "" : " ") + a;
  }
  const uint32_t nodes = static_cast<uint32_t>(hosts.size());
  ProcessGroup group;
  for (uint32_t r = 0; r < nodes; ++r) {
    const int pass_fd = r == 0 ? coordinator_fd : -1;
    std::vector<std::string> run = {f.run_self ? "/proc/self/exe" : f.augur_path, "run"};
    if (IsProgram(f.run_flags)) {  // env AUGUR_RANK=r ... PROGRAM ARGS (launch_env.h)
      run = {"env"};
      for (const std::string& a :
           LaunchEnvAssignments({r, nodes, coordinator, f.secret_file, f.cluster_id, out_dir,
                                 pass_fd >= 0 ? kPassedFd : -1}))
        run.push_back(a);
      run.push_back("PYTHONUNBUFFERED=1");  // a Python program's lines arrive as printed
      // The Python module built with this augur (build/python), ahead of any other.
      const std::filesystem::path py =
          std::filesystem::path(f.augur_path).parent_path().parent_path() / "python";
      if (std::filesystem::exists(py / "augur" / "__init__.py")) {
        const char* old = std::getenv("PYTHONPATH");
        run.push_back("PYTHONPATH=" + py.string() +
                      (old != nullptr && *old != '\0' ? ":" + std::string(old) : ""));
      }
      run.insert(run.end(), f.run_flags.begin(), f.run_flags.end());
    } else {
      run.insert(run.end(), passed.begin(), passed.end());
      for (const std::string& a :
           {std::string("--rank"), std::to_string(r), std::string("--nodes"), std::to_string(nodes),
            std::string("--coordinator"), coordinator, std::string("--secret-file"), f.secret_file,
            std::string("--cluster-id"), f.cluster_id, std::string("--out"), out_dir}) {
        run.push_back(a);
      }
      if (pass_fd >= 0) {
        run.push_back("--coordinator-fd");
        run.push_back(std::to_string(kPassedFd));
      }
    }
    std::vector<std::string> argv = run;
    if (f.local == 0) {  // over ssh: HOST 'cd CWD && exec augur run ...'
      std::istringstream words(f.ssh);
      argv.clear();
      for (std::string w; words >> w;) argv.push_back(w);
      argv.push_back(hosts[r]);
      std::string cmd = "cd " + ShellQuote(std::filesystem::current_path().string()) + " && exec";
      for (const std::string& a : run) cmd += " " + ShellQuote(a);
      argv.push_back(cmd);
    }
    // A spawned process inherits the spawning thread's CPU affinity.
    std::optional<ScopedCpuPin> pin;
    if (!cpus.empty()) pin.emplace(cpus[r]);
    if (Status s = group.Spawn("rank " + std::to_string(r), argv, pass_fd,
                               ProcessGroup::JoinWatch{tcp::JoiningMarker(r), program});
        !s.ok()) {
      std::fprintf(stderr, "augur: cannot start rank %u: %s\n", r, s.message().c_str());
      return {};
    }
  }
  std::vector<int> codes = group.Wait(timeouts.kill_after, timeouts.join);
  *join_failure = group.join_failure();
  return codes;
}

int Launch(LaunchFlags& f) {
  if ((f.local > 0) == !f.hostfile.empty()) {
    return UsageError("give exactly one of --local N or --hostfile FILE");
  }
  std::vector<std::string> hosts;
  if (f.local > 0) {
    hosts.assign(f.local, "127.0.0.1");
  } else {
    Result<std::vector<std::string>> h = ReadHostfile(f.hostfile);
    if (!h.ok()) return UsageError(h.status().message());
    hosts = *h;
  }
  const uint32_t nodes = static_cast<uint32_t>(hosts.size());
  std::vector<int> cpus;  // --pin: rank r's CPU
  if (f.pin) {
    if (f.local == 0) return UsageError("--pin pins local ranks; it needs --local N");
    cpus = AllowedCpus();
    if (cpus.size() < nodes)
      return UsageError("--pin: " + std::to_string(nodes) + " ranks but only " +
                        std::to_string(cpus.size()) + " CPUs allowed here");
  }
  std::string out_dir, checkpoint_dir;
  std::vector<std::string> passed;
  const bool program = IsProgram(f.run_flags);
  if (!program && f.join_timeout_given)
    return UsageError(
        "--join-timeout is for a program after --: `augur run` ranks join on their own (after "
        "loading their data) or fail within --peer-timeout");
  Result<double> join_timeout = ParseDuration(f.join_timeout);
  if (!join_timeout.ok())
    return UsageError(join_timeout.status().WithContext("--join-timeout").message());
  if (program) {
    if (f.restarts > 0)
      return UsageError("--restart-on-failure restarts `augur run` ranks, not a program");
    out_dir = f.out;
  } else if (!f.out.empty()) {
    return UsageError("--out before -- is for a program; give augur run flags --out after --");
  } else if (Status s =
                 CheckRunFlags(f.run_flags, nodes, f.local, &out_dir, &checkpoint_dir, &passed);
             !s.ok()) {
    return UsageError(s.message());
  }
  if (f.restarts > 0 && checkpoint_dir.empty())
    return UsageError("--restart-on-failure needs --checkpoint-dir in the run flags");
  if (f.check_flags) return 0;
  // Without --out, what this launch created for itself leaves no trace: the
  // secret it generated there, and the temporary directory if nothing else
  // is in it (ranks' results stay, and with them the directory).
  struct Cleanup {
    std::string secret, temporary_dir;
    ~Cleanup() {
      std::error_code ignored;
      if (!secret.empty()) std::filesystem::remove(secret, ignored);
      if (!temporary_dir.empty()) std::filesystem::remove(temporary_dir, ignored);  // if empty
    }
  } cleanup;
  if (out_dir.empty()) {
    char tmpl[] = "/tmp/augur-launch-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return RunError("cannot create a temporary output directory");
    out_dir = tmpl;
    cleanup.temporary_dir = out_dir;
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return UsageError("--out: " + out_dir + ": cannot create it: " + ec.message());
  out_dir = std::filesystem::absolute(out_dir).string();
  for (uint32_t r = 0; r < nodes; ++r)
    std::filesystem::remove(out_dir + "/rank-" + std::to_string(r) + "/result.json", ec);
  std::filesystem::remove(out_dir + "/result.json", ec);
  if (f.secret_file.empty()) {
    f.secret_file = out_dir + "/secret";
    // A fresh secret per launch; the old one (an earlier run's) goes first,
    // since the new file is created exclusively (mode 0600 from the start).
    std::filesystem::remove(f.secret_file, ec);
    if (Status s = tcp::GenerateSecretFile(f.secret_file); !s.ok()) return RunError(s.message());
    if (!cleanup.temporary_dir.empty())
      cleanup.secret = std::filesystem::absolute(f.secret_file).string();
  } else if (Result<std::vector<uint8_t>> s = tcp::LoadSecret(f.secret_file); !s.ok()) {
    return UsageError(s.status().message());
  }
  f.secret_file = std::filesystem::absolute(f.secret_file).string();
  if (f.cluster_id.empty()) f.cluster_id = "augur-" + tcp::ToHex(tcp::RandomNonce()).substr(0, 12);
  // --local without --port: the launcher binds a free port and hands the
  // listening socket to rank 0 (a fresh one for every restart), so no other
  // process can take the port between its pick and its use.
  const bool pick_port = f.local > 0 && f.port == 0;
  if (f.port == 0 && f.local == 0) f.port = 29500;
  tcp::ListeningSocket coordinator_socket;
  const auto pick = [&]() -> Status {
    Result<tcp::ListeningSocket> l = tcp::ListenOnFreePort();
    if (!l.ok()) return l.status().WithContext("cannot listen on a free port (use --port)");
    coordinator_socket = std::move(*l);
    f.port = coordinator_socket.port();
    return Status::Ok();
  };
  if (pick_port) {
    if (Status s = pick(); !s.ok()) return RunError(s.message());
  }
  Result<double> kill_after = ParseDuration(f.kill_after);
  if (!kill_after.ok())
    return UsageError(kill_after.status().WithContext("--kill-after").message());
  const RankTimeouts timeouts{*kill_after, program ? *join_timeout : 0.0};
  if (f.augur_path.empty()) {
    f.augur_path = std::filesystem::read_symlink("/proc/self/exe", ec);
    // Local ranks run this very binary, even if its file was rebuilt meanwhile
    // (the path then names a deleted file); remote ones need its path.
    f.run_self = f.local > 0;
  }
  std::vector<int> codes;
  bool failed = false;
  std::string join_failure;
  for (uint32_t attempt = 0;; ++attempt) {
    const std::string coordinator = hosts[0] + ":" + std::to_string(f.port);
    std::printf("[launch] %u nodes, coordinator %s, cluster %s, output %s\n", nodes,
                coordinator.c_str(), f.cluster_id.c_str(), out_dir.c_str());
    codes = RunRanks(f, hosts, passed, coordinator, pick_port ? coordinator_socket.fd() : -1,
                     out_dir, timeouts, cpus, &join_failure);
    if (codes.empty()) return RunError("cannot start the ranks");
    failed = false;
    for (uint32_t r = 0; r < nodes; ++r) {
      if (codes[r] == 0) continue;
      std::printf("[launch] rank %u failed (exit code %d)\n", r, codes[r]);
      failed = true;
    }
    if (!failed || attempt >= f.restarts) break;
    // Restart every rank, from the last complete checkpoint if there is one
    // (checkpoint_files.h: LATEST names it), on a fresh port and cluster id.
    std::vector<std::string> next;
    for (size_t i = 0; i < passed.size(); ++i) {
      if (passed[i] == "--resume") {
        ++i;
      } else if (passed[i].rfind("--resume=", 0) != 0) {
        next.push_back(passed[i]);
      }
    }
    std::ifstream latest(checkpoint_dir + "/LATEST");
    std::string name;
    if (latest >> name) {
      next.push_back("--resume");
      next.push_back(std::filesystem::absolute(checkpoint_dir).string());
      std::printf("[launch] cluster failed; restarting from %s/%s (restart %u of %u)\n",
                  checkpoint_dir.c_str(), name.c_str(), attempt + 1, f.restarts);
    } else {
      std::printf(
          "[launch] cluster failed; restarting from the start: no checkpoint yet "
          "(restart %u of %u)\n",
          attempt + 1, f.restarts);
    }
    std::fflush(stdout);
    passed = next;
    f.cluster_id += "-r" + std::to_string(attempt + 1);
    if (pick_port) {
      if (Status s = pick(); !s.ok()) return RunError(s.message());
    }
    for (uint32_t r = 0; r < nodes; ++r)
      std::filesystem::remove(out_dir + "/rank-" + std::to_string(r) + "/result.json", ec);
  }
  const std::string cluster_failed =
      join_failure.empty() ? "cluster failed" : "cluster failed: " + join_failure;
  Result<std::vector<nlohmann::json>> ranks = ReadRankResults(out_dir, nodes);
  if (!ranks.ok() && program && !failed) {  // a program need not write results
    std::printf("[launch] every rank succeeded; no results to merge (%s)\n",
                ranks.status().message().c_str());
    return 0;
  }
  if (!ranks.ok()) return RunError(failed ? cluster_failed : ranks.status().message());
  Result<nlohmann::json> merged = MergeRankResults(*ranks);
  if (!merged.ok()) return RunError(merged.status().message());
  if (Status s = WriteResultJson(out_dir, *merged); !s.ok()) return RunError(s.message());
  PrintResultSummary(*merged, stdout);
  std::printf("  result: %s/result.json\n", out_dir.c_str());
  if (failed) return RunError(cluster_failed);
  return DivergenceExitCode(*merged, merged->value("verified", true) ? 0 : 1);
}

}  // namespace

CommandFn AddLaunchCommand(CLI::App& root) {
  auto f = std::make_shared<LaunchFlags>();
  CLI::App* app = root.add_subcommand(
      "launch",
      "Start a TCP cluster of `augur run` processes (--local N on this machine, or --hostfile "
      "over ssh), stream their output with a rank prefix, merge their results into "
      "OUT/result.json. Usage: augur launch --local 4 -- --workload zipf --verify --out DIR. "
      "When a program follows -- (augur launch --local 2 -- python3 train.py), it is started "
      "once per rank with AUGUR_RANK, AUGUR_NODES, AUGUR_COORDINATOR, AUGUR_SECRET_FILE, "
      "AUGUR_CLUSTER_ID and AUGUR_OUT set (augur.join reads them)");
  app->add_option("--local", f->local, "Start N nodes on this machine (loopback)");
  app->add_flag(
      "--pin", f->pin,
      "With --local: pin rank r to the r-th CPU this process may use (a node on a core "
      "of its own, as `augur sim --host-cores 1` models it); needs as many CPUs as ranks");
  app->add_option("--hostfile", f->hostfile,
                  "Start ranks over ssh: one host per line, optional 'slots=N'; OUT and the "
                  "secret file must be on a shared filesystem");
  app->add_option("--port", f->port,
                  "Coordinator port (default: a free port for --local, 29500 for --hostfile)");
  app->add_option("--secret-file", f->secret_file,
                  "Shared secret (default: a fresh one generated as OUT/secret, mode 0600)");
  app->add_option("--cluster-id", f->cluster_id, "Cluster name (default: random)");
  app->add_option("--ssh", f->ssh, "Remote shell command for --hostfile")->capture_default_str();
  app->add_option("--augur", f->augur_path,
                  "Path of the augur binary on the hosts (default: this one)");
  app->add_option("--kill-after", f->kill_after,
                  "After a node failed, kill nodes still running this much later")
      ->capture_default_str();
  app->add_option("--join-timeout", f->join_timeout,
                  "With a program after --: ranks that have not begun to join the cluster "
                  "(augur.join) this long after the start are named, every rank is killed and "
                  "launch fails (0: wait forever; a program that loads for longer before "
                  "augur.join needs more)")
      ->capture_default_str();
  app->add_option("--restart-on-failure", f->restarts,
                  "When a rank fails, restart the whole cluster up to N times, from the last "
                  "checkpoint of the run's --checkpoint-dir (issue 7)")
      ->capture_default_str();
  app->add_option("--out", f->out,
                  "With a program after --: the directory given to it as AUGUR_OUT, where each "
                  "rank writes rank-R/result.json (default: a temporary one)");
  app->add_option("run_flags", f->run_flags, "`augur run` flags, or PROGRAM ARGS..., after --");
  AddCheckFlagsFlag(*app, &f->check_flags);
  return [f, app]() -> int {
    f->join_timeout_given = app->count("--join-timeout") > 0;
    return Launch(*f);
  };
}

}  // namespace augur

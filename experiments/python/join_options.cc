#include "experiments/python/join_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/base/rng.h"
#include "experiments/cli/run_flags.h"
#include "experiments/cli/tcp_flags.h"
#include "experiments/jobs/management_options.h"
#include "experiments/launch/launch_env.h"
#include "experiments/models/task_rows.h"

namespace augur {

namespace {

// Flags that take no value: "true" sets them, "false" leaves them off.
bool IsSwitch(const std::string& flag) {
  return flag == "act-immediately" || flag == "immediate-owner-updates";
}

std::string FlagName(std::string python_name) {
  std::replace(python_name.begin(), python_name.end(), '_', '-');
  return python_name;
}

Status ParseFlags(const JoinRequest& r, RunConfig* config, TcpFlagText* tcp_text,
                  std::optional<uint32_t>* nodes_flag) {
  std::vector<std::pair<std::string, std::string>> given;  // flag name -> value
  for (const auto& [name, value] : r.options) {
    const std::vector<std::string>& known = JoinOptionNames();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return Status::Error("augur.join: unknown option '" + name +
                           "' (expected dim, layout, "
                           "optimizer, lr, initial_accumulator, init_scale, sample_range, "
                           "workload or one of: " +
                           list + ")");
    }
    given.emplace_back(FlagName(name), value);
  }
  for (const auto& [flag, value] : ReadLaunchEnv()) {
    const bool set =
        std::any_of(given.begin(), given.end(), [&](const auto& g) { return g.first == flag; });
    if (!set) given.emplace_back(flag, value);
  }
  std::vector<std::string> args;
  for (const auto& [flag, value] : given) {
    if (IsSwitch(flag)) {
      if (value != "true" && value != "false")
        return Status::Error("--" + flag + " takes True or False, not '" + value + "'");
      if (value == "true") args.push_back("--" + flag);
      continue;
    }
    args.push_back("--" + flag);
    args.push_back(value);
  }
  CLI::App app("augur.join");
  AddRunFlags(app, config);
  AddClusterWorkloadFlags(app, config);
  AddTcpFlags(app, tcp_text);
  try {
    std::reverse(args.begin(), args.end());
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return Status::Error(e.what());
  }
  if (app.count("--nodes") > 0) *nodes_flag = config->nodes;
  return Status::Ok();
}

// finish() writes OUT/rank-R/result.json: a bad `out` was found only then,
// after the whole training. Checked at join: the directory is created and
// takes a file.
Status CheckOutWritable(const std::string& out, uint32_t rank) {
  if (out.empty()) return Status::Ok();
  const std::string dir = out + "/rank-" + std::to_string(rank);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("out " + out + ": cannot create " + dir + ": " + ec.message());
  const std::string probe = dir + "/.augur-probe";
  {
    std::ofstream f(probe);
    if (!f)
      return Status::Error("out " + out + ": cannot write " + probe + ": " + std::strerror(errno));
  }
  std::filesystem::remove(probe, ec);
  return Status::Ok();
}

}  // namespace

const std::vector<std::string>& JoinOptionNames() {
  static const std::vector<std::string> kNames = {"workers",
                                                  "seed",
                                                  "out",
                                                  "policy",
                                                  "replicate",
                                                  "sync_period",
                                                  "sync_significance",
                                                  "sync_round_keys",
                                                  "sync_max_deferred",
                                                  "act_immediately",
                                                  "immediate_owner_updates",
                                                  "stall_timeout",
                                                  "sampling",
                                                  "reuse",
                                                  "prefetch_lead",
                                                  "rank",
                                                  "nodes",
                                                  "coordinator",
                                                  "bind",
                                                  "secret_file",
                                                  "cluster_id",
                                                  "peer_timeout",
                                                  "emulate_latency",
                                                  "max_frame_bytes",
                                                  "wire_security",
                                                  "handshake_timeout",
                                                  "io_slice"};
  return kNames;
}

Result<JoinOptions> ParseJoinOptions(const JoinRequest& r) {
  JoinOptions o;
  if (r.dim == 0 || r.dim > 1u << 16) return Status::Error("dim must be in [1, 65536]");
  TcpFlagText tcp_text;
  std::optional<uint32_t> nodes_flag;
  if (Status s = ParseFlags(r, &o.config, &tcp_text, &nodes_flag); !s.ok()) return s;
  if (Status s = FinishTcpOptions(tcp_text, nodes_flag, &o.tcp); !s.ok()) return s;
  o.config.backend = "tcp";
  o.config.nodes = o.tcp.nodes;
  o.config.dim = r.dim;
  if (Status s = FinishRunConfig(RunFlagText{}, &o.config); !s.ok()) return s;
  if (Status s = CheckOutWritable(o.config.out_dir, o.tcp.rank); !s.ok()) return s;

  std::vector<ValueLayout::Range> ranges;
  for (const JoinRequest::Range& x : r.layout) {
    if (x.last < x.first)
      return Status::Error("layout: range (" + std::to_string(x.first) + ", " +
                           std::to_string(x.last) + ", ...) ends before it starts");
    if (x.last == ~Key{0}) return Status::Error("layout: last key must be below 2^64-1");
    if (x.length == 0 || x.length > 1u << 16)
      return Status::Error("layout: length must be in [1, 65536]");
    ranges.push_back({x.first, x.last + 1, x.length});
  }
  Result<ValueLayout> layout = ValueLayout::Create(r.dim, ranges);
  if (!layout.ok()) return layout.status().WithContext("layout");
  o.node.workers = o.config.workers;
  o.node.layout = std::move(*layout);
  o.node.seed = o.config.seed;
  Result<OptimizerKind> kind = ParseOptimizerKind(r.optimizer);
  if (!kind.ok()) return kind.status().WithContext("optimizer");
  if (!(r.lr > 0 && r.lr < 1e6))  // as augur run's --lr (config/workload_options.cc)
    return Status::Error("lr must be a number > 0 and below 1e6");
  if (!(r.initial_accumulator >= 0)) return Status::Error("initial_accumulator must be >= 0");
  o.node.optimizer.kind = *kind;
  o.node.optimizer.learning_rate = static_cast<float>(r.lr);
  o.node.optimizer.initial_accumulator = static_cast<float>(r.initial_accumulator);
  if (!(r.init_scale >= 0) || !std::isfinite(r.init_scale))
    return Status::Error("init_scale must be >= 0");
  if (r.init_scale > 0) {
    const float scale = static_cast<float>(r.init_scale);
    const uint64_t seed = o.config.seed;
    // Seeded by the key, so a key's first value is the same wherever it is created.
    o.node.init = [scale, seed](Key key, std::span<float> value) {
      InitUniformRow(seed, key, scale, value);
    };
  }
  if (Status s = ConfigureManagement(o.config, {}, &o.node); !s.ok()) return s;
  if (r.sample_range.has_value()) {
    const auto [first, last] = *r.sample_range;
    if (last < first) return Status::Error("sample_range: last key is below the first");
    Result<SampleScheme> scheme = ParseSampleScheme(o.config.sampling);
    if (!scheme.ok()) return scheme.status().WithContext("sampling");
    o.node.sampling.scheme = *scheme;
    o.node.sampling.reuse = o.config.reuse;
    o.node.sampling.prefetch_lead = o.config.prefetch_lead;
    const uint64_t span = last - first;  // keys first + [0, span]
    o.node.sampling.draw = [first, span](Rng& rng) {
      return span == ~uint64_t{0} ? rng.Next() : first + rng.Below(span + 1);
    };
  }
  o.workload = r.workload.empty() ? "python" : r.workload;
  nlohmann::json j = o.config.ToJson();
  j.erase("zipf");
  j.erase("verify");
  j.erase("checkpoint");
  j.erase("lookahead");
  j["workload"] = o.workload;
  j["dim"] = r.dim;
  j["optimizer"] = {{"kind", r.optimizer}, {"lr", r.lr}};
  if (r.sample_range.has_value())
    j["sampling"] = {{"scheme", o.config.sampling},
                     {"reuse", o.config.reuse},
                     {"prefetch_lead", o.config.prefetch_lead}};
  o.config_json = std::move(j);
  return o;
}

}  // namespace augur

#include "experiments/cli/sim_recovery.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/checkpoint/checkpoint_files.h"
#include "experiments/launch/process_group.h"

namespace augur {

namespace {

// The flags the user gave, as argv words, except those the restart replaces.
std::vector<std::string> RepeatFlags(const CLI::App& app) {
  std::vector<std::string> words;
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() == 0 || o->get_lnames().empty()) continue;
    const std::string name = "--" + o->get_lnames().front();
    if (name == "--fail-node" || name == "--resume" || name == "--out" || name == "--help")
      continue;
    if (o->get_expected_max() == 0) {  // a flag
      words.push_back(name);
      continue;
    }
    for (const std::string& v : o->results()) {
      words.push_back(name);
      words.push_back(v);
    }
  }
  return words;
}

Result<nlohmann::json> ReadJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error(path + ": cannot read");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::Error(path + ": not a JSON object");
  return j;
}

std::vector<double> Doubles(const nlohmann::json& j, const char* key) {
  std::vector<double> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

}  // namespace

Result<nlohmann::json> RecoverSimRun(const CLI::App& app, const RunConfig& config,
                                     const NodeFailure& failure, const nlohmann::json& failed) {
  const std::string& dir = config.checkpoint_dir;
  std::string ckpt;
  CheckpointManifest manifest;  // epoch 0 at time 0 when restarting from scratch
  if (std::filesystem::exists(dir + "/LATEST")) {
    Result<LoadedCheckpoint> ck = LoadCheckpoint(dir);
    if (!ck.ok()) return ck.status().WithContext("recovery after --fail-node");
    ckpt = ck->path;
    manifest = ck->manifest;
  }
  const std::string out =
      config.out_dir.empty() ? dir + "/recovery-out" : config.out_dir + "/recovery";
  std::vector<std::string> argv = {"/proc/self/exe", "sim"};
  for (std::string& w : RepeatFlags(app)) argv.push_back(std::move(w));
  if (!ckpt.empty()) argv.insert(argv.end(), {"--resume", ckpt});
  argv.insert(argv.end(), {"--out", out});
  std::fprintf(stderr, "augur: node %u failed at simulated time %.6f s; restarting from %s\n",
               failure.node, failure.at_seconds, ckpt.empty() ? "the start" : ckpt.c_str());
  ProcessGroup group;
  if (Status s = group.Spawn("recovery", argv); !s.ok()) return s;
  const std::vector<int> codes = group.Wait(0);
  if (codes.empty() || codes[0] != 0)
    return Status::Error("the recovery run from " + (ckpt.empty() ? "the start" : ckpt) +
                         " failed (exit " + std::to_string(codes.empty() ? -1 : codes[0]) + ")");
  Result<nlohmann::json> j = ReadJson(out + "/result.json");
  if (!j.ok()) return j.status();

  // Whole epochs node 0 finished before the failure, after the checkpoint.
  const size_t done_before = Doubles(failed, "epoch_seconds").size();
  const uint32_t lost_epochs =
      done_before > manifest.epoch ? static_cast<uint32_t>(done_before - manifest.epoch) : 0;
  const std::vector<double> again = Doubles(*j, "epoch_seconds");
  double recomputed = 0;
  for (size_t e = 0; e < lost_epochs && e < again.size(); ++e) recomputed += again[e];
  double resumed_end = 0;
  if (auto it = j->find("simulated_end_seconds"); it != j->end() && it->is_number())
    resumed_end = it->get<double>();
  (*j)["recovery"] = {{"failed_node", failure.node},
                      {"failed_at_seconds", failure.at_seconds},
                      {"checkpoint", ckpt.empty() ? nlohmann::json() : nlohmann::json(ckpt)},
                      {"checkpoint_epoch", manifest.epoch},
                      {"checkpoint_taken_at_seconds", manifest.taken_at_seconds},
                      {"epochs_done_before_failure", done_before},
                      {"lost_simulated_seconds", failure.at_seconds - manifest.taken_at_seconds},
                      {"lost_whole_epochs", lost_epochs},
                      {"recomputed_whole_epochs", std::min<size_t>(lost_epochs, again.size())},
                      {"recomputed_simulated_seconds", recomputed},
                      {"total_simulated_seconds", failure.at_seconds + resumed_end},
                      {"restarted_run", out + "/result.json"}};
  return j;
}

}  // namespace augur

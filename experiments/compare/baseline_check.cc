#include "experiments/compare/baseline_check.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "experiments/compare/compare_record.h"

namespace augur {

namespace {

Status Bad(const std::string& path, const std::string& field, const std::string& what) {
  return Status::Error("--baseline " + path + ": field '" + field + "' " + what);
}

bool FiniteNonNegative(const nlohmann::json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0;
}

// An array of finite numbers >= 0, not empty; a missing one is an error if `required`.
Status CheckTimes(const nlohmann::json& run, const std::string& path, const char* field,
                  bool required) {
  const auto it = run.find(field);
  if (it == run.end()) {
    return required ? Bad(path, field, "is missing (the epochs' times)") : Status::Ok();
  }
  if (!it->is_array() || it->empty())
    return Bad(path, field, "must be a non-empty array of seconds, got " + it->dump());
  for (const auto& v : *it)
    if (!FiniteNonNegative(v))
      return Bad(path, field, "must hold finite seconds >= 0, got " + v.dump());
  return Status::Ok();
}

// The same file or directory, however the two paths spell it.
bool SamePath(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (a.empty() || b.empty()) return false;
  const auto normal = [](const std::string& p, std::error_code* ec) {
    std::filesystem::path c =
        std::filesystem::weakly_canonical(std::filesystem::absolute(p), *ec).lexically_normal();
    return c.has_filename() ? c : c.parent_path();  // "d/" is "d"
  };
  std::error_code ea, eb;
  const auto ca = normal(a, &ea);
  const auto cb = normal(b, &eb);
  return !ea && !eb && ca == cb;
}

// Numbers equal up to float rounding (the options are floats in RunConfig).
bool SameValue(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::fabs(x - y) <= 1e-6 * std::max(std::fabs(x), std::fabs(y));
  }
  return a == b;
}

// A value as a message shows it: numbers to 6 digits (the options are floats).
std::string Show(const nlohmann::json& v) {
  if (!v.is_number_float()) return v.dump();
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v.get<double>());
  return buf;
}

// The flag that sets a field of config.<workload> (RunConfig::ToJson).
std::string FlagOf(const std::string& key) {
  static const std::pair<const char*, const char*> kFlags[] = {{"dim", "--dim"},
                                                               {"rank", "--dim"},
                                                               {"negatives", "--negatives"},
                                                               {"batch_size", "--batch-size"},
                                                               {"learning_rate", "--lr"},
                                                               {"eval_triples", "--eval-triples"},
                                                               {"window", "--window"},
                                                               {"min_count", "--min-count"},
                                                               {"subsample", "--subsample"},
                                                               {"reg", "--reg"},
                                                               {"gen_rows", "--mf-rows"},
                                                               {"gen_cols", "--mf-cols"},
                                                               {"gen_nnz", "--mf-nnz"},
                                                               {"gen_skew", "--mf-skew"}};
  for (const auto& [field, flag] : kFlags)
    if (key == field) return flag;
  return "its workload flags";
}

}  // namespace

Status CheckBaselineFields(const nlohmann::json& run, const std::string& path,
                           const std::string& workload) {
  if (!run.is_object())
    return Status::Error("--baseline " + path + ": not a result.json (a JSON object), but a " +
                         std::string(run.type_name()));
  const auto text = [&](const char* field) {
    const auto it = run.find(field);
    return it != run.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (text("backend") != "single" || text("workload") != workload)
    return Status::Error("--baseline " + path + " is not an `augur single` run of " + workload);
  for (const char* field : {"epochs", "workers_per_node"}) {
    const auto it = run.find(field);
    if (it == run.end() || !it->is_number_integer() || it->get<int64_t>() <= 0 ||
        it->get<int64_t>() > int64_t{UINT32_MAX})
      return Bad(path, field,
                 "must be a positive integer, got " + (it == run.end() ? "none" : it->dump()));
  }
  if (const auto it = run.find("samples"); it == run.end() || !FiniteNonNegative(*it))
    return Bad(path, "samples",
               "must be a finite number >= 0, got " + (it == run.end() ? "none" : it->dump()));
  if (Status s = CheckTimes(run, path, "epoch_seconds", true); !s.ok()) return s;
  if (Status s = CheckTimes(run, path, "epoch_cpu_seconds", false); !s.ok()) return s;
  if (const auto it = run.find("diverged"); it != run.end() && !it->is_boolean())
    return Bad(path, "diverged", "must be true or false, got " + it->dump());
  if (run.value("diverged", false)) {
    const auto why = run.find("divergence");
    return Status::Error("--baseline " + path + ": that run diverged" +
                         (why != run.end() && why->is_string()
                              ? " (" + why->get<std::string>() + ")"
                              : std::string()) +
                         ", so it is no reference; give runs that converged");
  }
  if (const auto it = run.find("config"); it != run.end() && !it->is_object())
    return Bad(path, "config", "must be an object, got " + it->dump());
  // The headline quality: absent means not measured; present, it must be a number.
  const std::string q = HeadlineQuality(workload).name;  // "quality.NAME"
  if (const auto quality = run.find("quality"); quality != run.end()) {
    if (!quality->is_object()) return Bad(path, "quality", "must be an object");
    const std::string name = q.substr(q.find('.') + 1);
    if (const auto v = quality->find(name); v != quality->end() && !FiniteNonNegative(*v))
      return Bad(path, q, "must be a finite number >= 0, got " + v->dump());
  }
  return Status::Ok();
}

Status CheckBaselineSetup(const nlohmann::json& run, const std::string& path,
                          const BaselineExpectation& e, bool timing) {
  if (!timing && run.at("epochs").get<uint64_t>() != e.epochs)
    return Status::Error("--baseline " + path + " is not an `augur single` run of " + e.workload +
                         " for " + std::to_string(e.epochs) + " epochs");
  if (e.config == nullptr) return Status::Ok();
  const nlohmann::json& want = *e.config;
  const nlohmann::json& got = run.value("config", nlohmann::json::object());
  const auto differs = [&](const std::string& field, const nlohmann::json& theirs,
                           const nlohmann::json& ours, const std::string& flag) {
    return Status::Error("--baseline " + path + " ran with " + field + " " + Show(theirs) +
                         ", this comparison with " + Show(ours) + " (" + flag +
                         "): its times and quality are not comparable; run the baseline again "
                         "or give the same flags");
  };
  if (got.contains("data_dir") && want.contains("data_dir")) {
    const nlohmann::json& theirs = got["data_dir"];
    const std::string ours = want["data_dir"].get<std::string>();
    if (!theirs.is_string() || !SamePath(theirs.get<std::string>(), ours))
      return differs("data", theirs, ours, "--data");
  }
  const nlohmann::json& seed =
      got.contains("seed") ? got["seed"] : run.value("seed", nlohmann::json());
  if (!seed.is_null() && want.contains("seed") && !SameValue(seed, want["seed"]))
    return differs("seed", seed, want["seed"], "--seed");
  if (!got.contains(e.workload) || !want.contains(e.workload)) return Status::Ok();
  const nlohmann::json& theirs = got[e.workload];
  const nlohmann::json& ours = want[e.workload];
  if (!theirs.is_object())
    return Bad(path, "config." + e.workload, "must be an object, got " + theirs.dump());
  for (const auto& [key, value] : ours.items()) {
    if (key == "compute_seconds_per_sample") continue;  // a single run does not use it
    const auto it = theirs.find(key);
    if (it == theirs.end()) continue;
    if (!SameValue(*it, value)) return differs(e.workload + "." + key, *it, value, FlagOf(key));
  }
  return Status::Ok();
}

}  // namespace augur

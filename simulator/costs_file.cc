#include "simulator/costs_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace augur {

namespace {

// A count field: absent gives `absent`; present, a whole number in [low, high]
// (nlohmann would wrap -2 to 4294967294 and truncate 2.5 to 2).
Result<uint32_t> CountField(const nlohmann::json& j, const char* name, uint32_t absent,
                            uint32_t low, uint32_t high) {
  const auto it = j.find(name);
  if (it == j.end()) return absent;
  const std::string range =
      " (expected a whole number in [" + std::to_string(low) + ", " + std::to_string(high) + "])";
  if (!it->is_number_integer())
    return Status::Error(std::string(name) + " is " + it->dump() + range);
  const int64_t v = it->get<int64_t>();
  if (v < low || v > high) return Status::Error(std::string(name) + " is " + it->dump() + range);
  return static_cast<uint32_t>(v);
}

}  // namespace

nlohmann::json SimCosts::ToJson() const {
  nlohmann::json j = {
      {"workload", workload},
      {"seconds_per_key", seconds_per_key},
      {"seconds_per_sample", seconds_per_sample},
      {"first_epoch_extra_seconds_per_sample", first_epoch_extra_seconds_per_sample},
      {"worker_cost_source", worker_cost_source},
      {"seconds_per_key_time_sliced", seconds_per_key_time_sliced},
      {"seconds_per_sample_time_sliced", seconds_per_sample_time_sliced},
      {"time_sliced_processes", time_sliced_processes},
      {"time_sliced_cost_source", time_sliced_cost_source},
      {"message_cost_source", message_cost_source},
      {"seconds_per_message", seconds_per_message},
      {"seconds_per_message_byte", seconds_per_message_byte},
      {"seconds_per_coalesced_message", seconds_per_coalesced_message},
      {"seconds_per_awake_message", seconds_per_awake_message},
      {"seconds_per_queued_byte", seconds_per_queued_byte},
      {"queued_byte_burst", queued_byte_burst},
      {"wakeup_delay_seconds", wakeup_delay_seconds},
      {"wakeup_delay_source", wakeup_delay_source},
      {"time_sliced_wakeup_delay_seconds", time_sliced_wakeup_delay_seconds},
      {"time_sliced_wakeup_delay_source", time_sliced_wakeup_delay_source},
      {"cores", cores},
      {"loopback_bandwidth_bytes_per_second", loopback_bandwidth_bytes_per_second},
      {"loopback_latency_seconds", loopback_latency_seconds},
      {"loopback_latency_source", loopback_latency_source},
      {"machine", machine},
      {"git_commit", git_commit},
  };
  if (cores == 0) j.erase("cores");  // not calibrated: FromJson refuses 0 cores
  return j;
}

Result<SimCosts> SimCosts::FromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::Error("expected a JSON object");
  SimCosts c;
  try {
    c.workload = j.value("workload", "");
    c.seconds_per_key = j.at("seconds_per_key").get<double>();
    c.seconds_per_message = j.at("seconds_per_message").get<double>();
    c.seconds_per_message_byte = j.at("seconds_per_message_byte").get<double>();
    c.seconds_per_coalesced_message = j.value("seconds_per_coalesced_message", -1.0);
    c.seconds_per_awake_message = j.value("seconds_per_awake_message", -1.0);
    c.seconds_per_queued_byte = j.value("seconds_per_queued_byte", 0.0);
    c.queued_byte_burst = j.value("queued_byte_burst", 0.0);
    c.seconds_per_sample = j.value("seconds_per_sample", -1.0);
    c.first_epoch_extra_seconds_per_sample = j.value("first_epoch_extra_seconds_per_sample", 0.0);
    c.worker_cost_source = j.value("worker_cost_source", "");
    c.seconds_per_key_time_sliced = j.value("seconds_per_key_time_sliced", -1.0);
    c.seconds_per_sample_time_sliced = j.value("seconds_per_sample_time_sliced", -1.0);
    c.time_sliced_cost_source = j.value("time_sliced_cost_source", "");
    c.message_cost_source = j.value("message_cost_source", "");
    c.wakeup_delay_seconds = j.value("wakeup_delay_seconds", 0.0);
    c.wakeup_delay_source = j.value("wakeup_delay_source", "");
    c.time_sliced_wakeup_delay_seconds = j.value("time_sliced_wakeup_delay_seconds", -1.0);
    c.time_sliced_wakeup_delay_source = j.value("time_sliced_wakeup_delay_source", "");
    c.loopback_bandwidth_bytes_per_second = j.value("loopback_bandwidth_bytes_per_second", 0.0);
    c.loopback_latency_seconds = j.value("loopback_latency_seconds", -1.0);
    c.loopback_latency_source = j.value("loopback_latency_source", "");
    c.machine = j.value("machine", "");
    c.git_commit = j.value("git_commit", "");
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("missing or mistyped field: ") + e.what());
  }
  if (c.seconds_per_message < 0 || c.seconds_per_message_byte < 0)
    return Status::Error("message costs must be >= 0");
  if (!(c.seconds_per_coalesced_message < 1))
    return Status::Error("seconds_per_coalesced_message must be below 1 (negative: as a message)");
  if (c.seconds_per_coalesced_message < 0) c.seconds_per_coalesced_message = -1;
  if (!(c.seconds_per_awake_message < 1))
    return Status::Error("seconds_per_awake_message must be below 1 (negative: as a message)");
  if (c.seconds_per_awake_message < 0) c.seconds_per_awake_message = -1;
  if (!(c.seconds_per_queued_byte >= 0))
    return Status::Error("seconds_per_queued_byte must be >= 0");
  if (!(c.queued_byte_burst >= 0)) return Status::Error("queued_byte_burst must be >= 0");
  if (!(c.wakeup_delay_seconds >= 0 && c.wakeup_delay_seconds < 1))
    return Status::Error("wakeup_delay_seconds must be in [0, 1)");
  if (!(c.time_sliced_wakeup_delay_seconds < 1))
    return Status::Error(
        "time_sliced_wakeup_delay_seconds must be below 1 (negative: not measured)");
  if (c.time_sliced_wakeup_delay_seconds < 0) c.time_sliced_wakeup_delay_seconds = -1;
  if (!(c.first_epoch_extra_seconds_per_sample >= 0))
    return Status::Error("first_epoch_extra_seconds_per_sample must be >= 0");
  // time_sliced_processes 0: not measured; cores absent: not calibrated.
  Result<uint32_t> sliced = CountField(j, "time_sliced_processes", 0, 0, 4097);
  if (!sliced.ok()) return sliced.status();
  c.time_sliced_processes = *sliced;
  Result<uint32_t> cores = CountField(j, "cores", 0, 1, 4096);
  if (!cores.ok()) return cores.status();
  c.cores = *cores;
  if (!(c.loopback_bandwidth_bytes_per_second >= 0))
    return Status::Error("loopback_bandwidth_bytes_per_second must be >= 0");
  return c;
}

Result<SimCosts> ReadCostsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read costs file " + path + ": " + std::strerror(errno));
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error("costs file " + path + " is not valid JSON: " + e.what());
  }
  Result<SimCosts> c = SimCosts::FromJson(j);
  if (!c.ok()) return c.status().WithContext("costs file " + path);
  return c;
}

Status WriteCostsFile(const std::string& path, const SimCosts& costs) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) return Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
    out << costs.ToJson().dump(2) << "\n";
    if (!out) return Status::Error("error writing " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return Status::Error("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace augur

#include "experiments/compare/results_csv.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/metrics/counter_list.h"

namespace augur {

namespace {

// Leading columns, in this order; the rest follow sorted by name.
const char* kLeading[] = {"run",
                          "backend",
                          "workload",
                          "policy",
                          "nodes",
                          "workers_per_node",
                          "epochs",
                          "epoch_seconds_mean",
                          "reference_cores",
                          "reference_epoch_seconds",
                          "speedup_over_single",
                          "speedup_over_one_node",
                          "quality_name",
                          "quality",
                          "quality_stderr",
                          "quality_ratio_to_single",
                          "train_loss_final",
                          "bytes_sent_per_node_mean",
                          "bytes_sent_per_node_max",
                          "local_access_ratio",
                          CounterName(NodeCounter::kRelocations),
                          CounterName(NodeCounter::kReplicaSyncs),
                          CounterName(NodeCounter::kReplicasCreated),
                          "epoch_seconds",
                          "train_loss_per_epoch",
                          "total_seconds",
                          "wall_seconds",
                          "samples",
                          CounterName(NodeCounter::kBytesSent),
                          CounterName(NodeCounter::kMessagesSent),
                          "seed",
                          "git_commit",
                          "machine"};

std::string Scalar(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

}  // namespace

void FlattenJson(const nlohmann::json& j, const std::string& prefix,
                 std::map<std::string, std::string>* out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) FlattenJson(v, prefix.empty() ? k : prefix + "." + k, out);
    return;
  }
  if (j.is_array()) {
    const bool scalars =
        std::all_of(j.begin(), j.end(), [](const auto& v) { return v.is_primitive(); });
    if (!scalars) {
      (*out)[prefix] = j.dump();
      return;
    }
    std::string cell;
    for (size_t i = 0; i < j.size(); ++i) {
      if (i > 0) cell += ';';
      cell += Scalar(j[i]);
    }
    (*out)[prefix] = cell;
    return;
  }
  (*out)[prefix] = Scalar(j);
}

std::vector<std::vector<std::string>> ResultsTable(const std::vector<CompareRecord>& records) {
  std::vector<std::map<std::string, std::string>> flat(records.size());
  std::set<std::string> names;
  for (size_t i = 0; i < records.size(); ++i) {
    FlattenJson(records[i].result, "", &flat[i]);
    FlattenJson(records[i].derived, "", &flat[i]);
    flat[i]["run"] = records[i].name;
    flat[i]["policy"] = records[i].policy;
    for (const auto& [k, v] : flat[i]) names.insert(k);
  }
  std::vector<std::string> header(std::begin(kLeading), std::end(kLeading));
  for (const char* k : kLeading) names.erase(k);
  header.insert(header.end(), names.begin(), names.end());
  std::vector<std::vector<std::string>> table{header};
  for (const auto& row : flat) {
    std::vector<std::string> cells;
    for (const std::string& h : header) {
      const auto it = row.find(h);
      cells.push_back(it == row.end() ? "" : it->second);
    }
    table.push_back(std::move(cells));
  }
  return table;
}

std::string CsvCell(const std::string& cell) {
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string q = "\"";
  for (char c : cell) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

Status WriteResultsCsv(const std::string& path, const std::vector<CompareRecord>& records) {
  std::ofstream out(path);
  if (!out) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  for (const auto& row : ResultsTable(records)) {
    for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << CsvCell(row[i]);
    out << "\n";
  }
  if (!out) return Status::Error("error writing " + path);
  return Status::Ok();
}

}  // namespace augur

// Results CSV: one row per run of a comparison, every result.json field
// flattened ("quality.test_mrr", "config.kge.dim"), plus compare's derived
// figures (compare_record.h).
//
// Columns: a fixed leading set (run identity, derived figures, the headline
// metrics) in a fixed order, then every other flattened field sorted by name.
// Arrays of numbers or strings become one cell joined by ';' (epoch_seconds
// "0.5;0.4"); other arrays are written as compact JSON. Cells are quoted per
// RFC 4180 when they hold a comma, a quote or a line break. Pure functions
// apart from WriteResultsCsv.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/compare/compare_record.h"

namespace augur {

// Flattens j into out: objects recurse with '.', arrays as described above.
void FlattenJson(const nlohmann::json& j, const std::string& prefix,
                 std::map<std::string, std::string>* out);

// The header and rows of the CSV (cells unquoted).
std::vector<std::vector<std::string>> ResultsTable(const std::vector<CompareRecord>& records);

std::string CsvCell(const std::string& cell);

// Writes the table to path. Error names the path.
Status WriteResultsCsv(const std::string& path, const std::vector<CompareRecord>& records);

}  // namespace augur

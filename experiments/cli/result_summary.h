// Prints a short human-readable summary of a result.json object.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

namespace augur {

void PrintResultSummary(const nlohmann::json& result, std::FILE* out);

}  // namespace augur

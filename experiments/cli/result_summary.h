// Prints a short human-readable summary of a result.json object.
#pragma once

#include <cstdio>
#include <nlohmann/json_fwd.hpp>

namespace augur {

void PrintResultSummary(const nlohmann::json& result, std::FILE* out);

// For a run whose training diverged ("diverged": true, jobs/divergence_guard.h):
// prints "augur: training diverged in epoch E: ...; last good loss L" to
// stderr and returns 1. Otherwise returns `otherwise`.
int DivergenceExitCode(const nlohmann::json& result, int otherwise);

}  // namespace augur

// MergeRankResults: one cluster result.json from every rank's own result.
//
// Each `augur run` writes DIR/rank-R/result.json for the node it hosted.
// The merged result has backend "tcp", nodes N, totals summed over ranks
// (bytes, messages, samples, local/remote accesses and their ratio),
// epoch_seconds and total_seconds from rank 0 (wall time), verified = AND
// over ranks, and per-node arrays in rank order. Pure function.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "core/base/status.h"

namespace augur {

// REQUIRES: ranks[r] is rank r's result object.
Result<nlohmann::json> MergeRankResults(const std::vector<nlohmann::json>& ranks);
// Reads DIR/rank-R/result.json for R in [0, nodes). Error names the missing file.
Result<std::vector<nlohmann::json>> ReadRankResults(const std::string& dir, uint32_t nodes);

}  // namespace augur

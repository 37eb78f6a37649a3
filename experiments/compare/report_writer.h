// The comparison report (DIR/report.md): tables per policy and node count,
// the configuration and provenance, and the distance to the goals.
//
// Tables: epoch time, speed-up over the single-node baseline (and over the
// same policy on one node), quality reached and its ratio to the baseline,
// bytes sent per node, local-access share, relocations and replica syncs.
// Goals: the adaptive policy at 8 nodes x 4 workers
// reaches >= 6x (kge, mf) or >= 4x (wv) over the baseline with quality
// within 2% of it; classic shows the inefficiency. The report states how far
// each measured figure is from its goal and whether the run's setting is the
// goal's setting. Pure apart from WriteReport.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/compare/compare_plan.h"
#include "experiments/compare/compare_record.h"

namespace augur {

struct ReportContext {
  CompareOptions options;
  std::string command_line;
  uint32_t hardware_cores = 0;
  double compare_wall_seconds = 0;
  std::vector<std::string> plots;  // PNG file names inside the output dir
  std::string plot_note;           // why plots are missing, if they are
  // What worker compute the cluster runs charged, when calibrated (one line).
  std::string worker_cost_note;
};

std::string ReportMarkdown(const ReportContext& context, const std::vector<CompareRecord>& records);
Status WriteReport(const std::string& path, const ReportContext& context,
                   const std::vector<CompareRecord>& records);

}  // namespace augur

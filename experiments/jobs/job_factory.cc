// MakeJob: the workload named in the config, as a Job any backend can run.
// Loading a real workload's data can fail (missing package, malformed line):
// that is the returned error, naming the file and line. So is a model the
// data makes too large for this machine (config/model_memory.h).
#include <memory>

#include "experiments/config/model_memory.h"
#include "experiments/jobs/job.h"
#include "experiments/kge/kge_job.h"
#include "experiments/mf/mf_job.h"
#include "experiments/wv/wv_job.h"
#include "experiments/zipf/zipf_job.h"

namespace augur {

namespace {

template <typename J, typename Task>
Result<std::unique_ptr<Job>> Make(const RunConfig& config) {
  // The data sized the model: refused before it is allocated if it cannot fit.
  Result<std::unique_ptr<Task>> task = LoadTaskWithinMemory<Task>(config);
  if (!task.ok()) return task.status();
  auto job = std::make_unique<J>(config, std::move(*task));
  if (Status s = job->LoadResume(); !s.ok()) return s;
  return std::unique_ptr<Job>(std::move(job));
}

}  // namespace

Result<std::unique_ptr<Job>> MakeJob(const RunConfig& config) {
  if (config.workload == "zipf") return ZipfJob::Create(config);
  if (config.workload == "kge") return Make<KgeJob, KgeTask>(config);
  if (config.workload == "wv") return Make<WvJob, WvTask>(config);
  if (config.workload == "mf") return Make<MfJob, MfTask>(config);
  return Status::Error("--workload '" + config.workload + "' is unknown (expected zipf|kge|wv|mf)");
}

}  // namespace augur

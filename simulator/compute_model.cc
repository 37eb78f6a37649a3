#include "simulator/compute_model.h"

#include <time.h>

#include <simgrid/s4u/Actor.hpp>

namespace augur {

namespace {
double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

ComputeModel::ComputeModel(ComputeMode mode, SimCosts costs)
    : mode_(mode), costs_(std::move(costs)) {}

ComputeModel::Meter& ComputeModel::Current() {
  const auto pid = static_cast<size_t>(simgrid::s4u::this_actor::get_pid());
  if (pid >= meters_.size()) meters_.resize(pid + 1);
  return meters_[pid];
}

double ComputeModel::TakeMeasured() {
  Meter& m = Current();
  const double now = ThreadCpuSeconds();
  if (m.mark >= 0) m.accumulated += now - m.mark;
  m.mark = now;
  const double taken = m.accumulated;
  m.accumulated = 0;
  return taken;
}

double ComputeModel::WorkerFlops(double modelled_seconds) {
  const double seconds = mode_ == ComputeMode::kMeasured ? TakeMeasured() : modelled_seconds;
  return seconds > 0 ? seconds * kReferenceFlopsPerSecond : 0;
}

double ComputeModel::MessageFlops(uint64_t bytes) {
  const double seconds =
      mode_ == ComputeMode::kMeasured ? TakeMeasured() : costs_.MessageSeconds(bytes);
  return seconds > 0 ? seconds * kReferenceFlopsPerSecond : 0;
}

void ComputeModel::BeforeYield() {
  if (mode_ != ComputeMode::kMeasured) return;
  Meter& m = Current();
  if (m.mark >= 0) m.accumulated += ThreadCpuSeconds() - m.mark;
  m.mark = -1;
}

void ComputeModel::AfterYield() {
  if (mode_ != ComputeMode::kMeasured) return;
  Current().mark = ThreadCpuSeconds();
}

}  // namespace augur

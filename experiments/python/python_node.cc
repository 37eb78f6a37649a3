#include "experiments/python/python_node.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "backends/tcp/tcp_transport.h"
#include "experiments/cli/tcp_flags.h"
#include "experiments/report/run_result.h"

namespace augur {

PythonNode::PythonNode(JoinOptions options)
    : options_(std::move(options)), start_(std::chrono::steady_clock::now()) {}

Result<std::unique_ptr<PythonNode>> PythonNode::Join(JoinOptions options,
                                                     std::function<bool()> interrupted) {
  std::unique_ptr<PythonNode> p(new PythonNode(std::move(options)));
  p->runtime_ = std::make_unique<tcp::TcpRuntime>(p->options_.tcp);
  if (interrupted)
    p->runtime_->SetInterruptCheck(std::move(interrupted), std::chrono::milliseconds(50));
  p->node_ = std::make_unique<Node>(p->options_.node, *p->runtime_);
  if (Status s = p->runtime_->Start(p->node_.get()); !s.ok()) {
    p->runtime_.reset();  // stops the I/O thread before the node goes away
    return s.WithContext("rank " + std::to_string(p->options_.tcp.rank));
  }
  PythonNode* self = p.get();
  p->watchdog_ = std::thread([self] {
    Status s = self->runtime_->transport().WaitFor([self] { return self->stop_watchdog_.load(); });
    if (!s.ok()) {
      s = s.WithContext("rank " + std::to_string(self->rank()));
      std::fprintf(stderr, "augur: %s\n", s.message().c_str());
      std::fflush(stderr);
      {
        std::lock_guard<std::mutex> g(self->failure_mu_);
        self->failure_ = s;
      }
      self->runtime_->Abandon();  // every worker's wait ends, raising the error
    }
  });
  return p;
}

Status PythonNode::failure() const {
  std::lock_guard<std::mutex> g(failure_mu_);
  return failure_;
}

void PythonNode::StopWatchdog() {
  if (!watchdog_.joinable()) return;
  stop_watchdog_.store(true);
  runtime_->transport().Notify();
  watchdog_.join();
}

PythonNode::~PythonNode() {
  StopWatchdog();
  runtime_.reset();  // before the node: no message or timer reaches it afterwards
}

nlohmann::json PythonNode::Metrics() {
  RunResult r;
  r.backend = "tcp";
  r.totals = node_->Metrics();
  r.per_node.push_back(r.totals);
  nlohmann::json j = r.ToJson(options_.config_json);
  for (const char* k : {"config", "git_commit", "machine", "seed", "epochs", "epoch_seconds",
                        "total_seconds", "wall_seconds", "samples", "samples_per_second"})
    j.erase(k);
  j["rank"] = rank();
  return j;
}

namespace {

// The fields of this node's result.json that the node measures or sets itself.
bool MeasuredField(const std::string& key, const nlohmann::json& measured) {
  for (const char* k : {"verified", "verify_detail", "rank", "wire_security", "frontend"})
    if (key == k) return true;
  return measured.contains(key);
}

}  // namespace

Status PythonNode::CheckReport(const PythonReport& report) const {
  for (size_t e = 0; e < report.epoch_seconds.size(); ++e) {
    const double s = report.epoch_seconds[e];
    if (!std::isfinite(s) || s < 0)
      return Status::Error("epoch_seconds[" + std::to_string(e) + "] is " + std::to_string(s) +
                           ": an epoch's time must be a finite number of seconds >= 0");
  }
  RunResult empty;
  empty.backend = "tcp";
  const nlohmann::json measured = empty.ToJson(options_.config_json);
  for (const auto& [k, v] : report.extra->items()) {
    if (MeasuredField(k, measured))
      return Status::Error("extra[\"" + k +
                           "\"] is a field the node records itself; give it another name (or, "
                           "for epoch_seconds, samples and verified, finish()'s own argument)");
  }
  return Status::Ok();
}

void PythonNode::Abandon(const std::string& why) {
  {
    std::lock_guard<std::mutex> g(failure_mu_);
    if (failure_.ok()) failure_ = Status::Error("rank " + std::to_string(rank()) + ": " + why);
  }
  runtime_->Abandon();
}

Result<nlohmann::json> PythonNode::Finish(const PythonReport& report, bool drain) {
  if (finished_) return Status::Error("finish() was called already");
  if (Status s = CheckReport(report); !s.ok()) return s;
  finished_ = true;
  RunResult r;
  r.backend = "tcp";
  r.totals = node_->Metrics();
  r.per_node.push_back(r.totals);
  if (!drain) Abandon("left without goodbye (finish(drain=False))");
  StopWatchdog();
  if (drain) {
    if (Status f = failure(); !f.ok()) return f;  // abandoned: no goodbye to the survivors
    if (Status s = runtime_->Finish(); !s.ok())
      return s.WithContext("rank " + std::to_string(rank()));
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  r.wall_seconds = wall;
  r.epoch_seconds = report.epoch_seconds;
  if (r.epoch_seconds.empty()) r.epoch_seconds.push_back(wall);
  for (double s : r.epoch_seconds) r.total_seconds += s;
  r.samples = report.samples;
  r.verified = report.verified;
  r.extra = report.extra;
  nlohmann::json config = options_.config_json;
  config["tcp"] = TcpOptionsJson(options_.tcp);
  nlohmann::json j = r.ToJson(config);
  j["rank"] = rank();
  j["wire_security"] = tcp::WireSecurityName(options_.tcp.wire_security);
  j["frontend"] = "python";
  const std::string& out = options_.config.out_dir;
  if (!out.empty()) {
    if (Status s = WriteResultJson(out + "/rank-" + std::to_string(rank()), j); !s.ok()) return s;
  }
  return j;
}

}  // namespace augur

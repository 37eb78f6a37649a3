#include "backends/loopback/virtual_scheduler.h"

#include "core/base/check.h"

namespace augur {

VirtualScheduler::~VirtualScheduler() {
  for (auto& c : contexts_) {
    AUGUR_CHECK(!c->thread.joinable() || c->finished,
                "scheduler destroyed while worker '%s' is still running", c->name.c_str());
    if (c->thread.joinable()) c->thread.join();
  }
}

void VirtualScheduler::Push(double t, int worker, std::function<void()> fn) {
  AUGUR_CHECK(t >= now_, "event scheduled in the past (%g < %g)", t, now_);
  queue_.push(Event{t, seq_++, worker, std::move(fn)});
}

void VirtualScheduler::At(double t, std::function<void()> fn) { Push(t, -1, std::move(fn)); }

int VirtualScheduler::Spawn(std::string name, std::function<void()> body) {
  auto c = std::make_unique<Context>();
  c->name = std::move(name);
  c->body = std::move(body);
  contexts_.push_back(std::move(c));
  const int id = static_cast<int>(contexts_.size()) - 1;
  Push(now_, id, nullptr);
  return id;
}

void VirtualScheduler::ThreadMain(int id) {
  contexts_[id]->resume.acquire();
  contexts_[id]->body();
  contexts_[id]->finished = true;
  ++finished_;
  running_ = -1;
  scheduler_resume_.release();
}

void VirtualScheduler::SwitchTo(int id) {
  Context& c = *contexts_[id];
  running_ = id;
  if (!c.started) {
    c.started = true;
    c.thread = std::thread([this, id] { ThreadMain(id); });
  }
  c.resume.release();
  scheduler_resume_.acquire();
}

void VirtualScheduler::YieldToScheduler() {
  const int id = running_;
  running_ = -1;
  scheduler_resume_.release();
  contexts_[id]->resume.acquire();
}

void VirtualScheduler::Park() {
  AUGUR_CHECK(running_ >= 0, "Park() called outside a worker");
  contexts_[running_]->parked = true;
  YieldToScheduler();
}

void VirtualScheduler::Wake(int id) {
  Context& c = *contexts_[id];
  AUGUR_CHECK(c.parked, "Wake() of worker '%s' that is not parked", c.name.c_str());
  c.parked = false;
  Push(now_, id, nullptr);
}

void VirtualScheduler::Sleep(double seconds) {
  AUGUR_CHECK(running_ >= 0, "Sleep() called outside a worker");
  Push(now_ + seconds, running_, nullptr);
  YieldToScheduler();
}

Status VirtualScheduler::Run() {
  while (!queue_.empty() && finished_ < contexts_.size()) {
    Event e = queue_.top();
    queue_.pop();
    now_ = e.time;
    ++events_;
    if (e.worker >= 0) {
      SwitchTo(e.worker);
    } else {
      e.fn();
    }
  }
  std::string parked;
  for (auto& c : contexts_) {
    if (!c->finished) parked += (parked.empty() ? "" : ", ") + c->name;
  }
  if (!parked.empty()) {
    // A broken protocol invariant: nothing can ever wake these workers, and
    // their threads cannot be unwound safely, so stop here with the evidence.
    AUGUR_CHECK(false, "deadlock at virtual time %.9f: parked workers with no pending event: %s",
                now_, parked.c_str());
  }
  for (auto& c : contexts_)
    if (c->thread.joinable()) c->thread.join();
  return Status::Ok();
}

}  // namespace augur

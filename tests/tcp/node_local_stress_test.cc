// A node's local path under real worker threads over the TCP runtime (run
// under ThreadSanitizer by scripts/test.sh): pushes that create keys on the
// hot path and direct (zero-copy) access on one node; hot-path pushes and
// pulls racing with relocations and replica syncs on two adaptive nodes.
// Every update is an integer, so the final values are exact sums.
#include <catch2/catch.hpp>
#include <memory>
#include <thread>
#include <vector>

#include "backends/tcp/tcp_runtime.h"
#include "core/base/rng.h"
#include "core/policy/policy.h"
#include "tests/tcp/free_port.h"

namespace augur::tcp {
namespace {

constexpr uint32_t kDim = 4;

struct Cluster {
  Cluster(uint32_t node_count, uint32_t workers, const std::string& policy) {
    ListeningSocket listener = FreePort();
    const uint16_t port = listener.port();
    for (uint32_t r = 0; r < node_count; ++r) {
      TcpOptions o;
      o.rank = r;
      o.nodes = node_count;
      o.coordinator_port = port;
      if (r == 0) o.coordinator_listen_fd = listener.Release();
      o.cluster_id = "stress-test";
      o.secret = std::vector<uint8_t>(32, 0x17);
      o.peer_timeout_seconds = 60;
      runtimes.push_back(std::make_unique<TcpRuntime>(o));
      NodeOptions no;
      no.workers = workers;
      no.layout = ValueLayout(kDim);
      Result<std::shared_ptr<const Policy>> p = MakePolicy(policy);
      REQUIRE(p.ok());
      no.policy = *p;
      no.sync_period_seconds = 2e-4;
      nodes.push_back(std::make_unique<Node>(no, *runtimes.back()));
    }
    std::vector<Status> start(node_count);
    std::vector<std::thread> starters;
    for (uint32_t r = 0; r < node_count; ++r)
      starters.emplace_back([&, r] { start[r] = runtimes[r]->Start(nodes[r].get()); });
    for (auto& t : starters) t.join();
    for (const Status& s : start) REQUIRE(s.ok());
  }
  // Runs body(node, worker) on every worker thread, then finishes cleanly.
  template <typename Body>
  void Run(Body body) {
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < nodes.size(); ++r)
      for (WorkerId w = 0; w < nodes[r]->num_workers(); ++w)
        threads.emplace_back([&, r, w] { body(r, nodes[r]->worker(w)); });
    for (auto& t : threads) t.join();
    std::vector<Status> finish(nodes.size());
    std::vector<std::thread> finishers;
    for (uint32_t r = 0; r < nodes.size(); ++r)
      finishers.emplace_back([&, r] { finish[r] = runtimes[r]->Finish(); });
    for (auto& t : finishers) t.join();
    for (const Status& s : finish) CHECK(s.ok());
  }
  // Nodes are destroyed first, while the runtimes' I/O threads still run:
  // after Finish() no timer may reach them (it used to crash here).
  std::vector<std::unique_ptr<TcpRuntime>> runtimes;
  std::vector<std::unique_ptr<Node>> nodes;
};

TEST_CASE("one node: pushes and direct updates from 4 threads are each applied once",
          "[tcp][stress]") {
  constexpr uint32_t kWorkers = 4, kRounds = 400, kShared = 256, kOwn = 64;
  Cluster c(1, kWorkers, "adaptive");
  std::vector<int> wrong(kWorkers, 0);
  c.Run([&](uint32_t, Worker& w) {
    Rng rng(DeriveSeed(3, w.id(), 0));
    REQUIRE(w.DirectAccess());
    // Own keys through direct access (a row per thread: Hogwild needs no
    // exactness between threads, so none share a row here).
    std::vector<Key> own;
    for (uint32_t i = 0; i < kOwn; ++i) own.push_back((Key{1} << 50) + w.id() * kOwn + i);
    std::vector<ParamStore::Entry> rows;
    const std::vector<float> ones(kOwn * kDim, 1.0f);
    std::vector<Key> batch(16);
    std::vector<float> batch_ones(16 * kDim, 1.0f);
    for (uint32_t round = 0; round < kRounds; ++round) {
      const Key start = rng.Below(kShared);
      for (uint32_t i = 0; i < batch.size(); ++i) batch[i] = (start + i * 5) % kShared;
      w.Wait(w.Push(batch, batch_ones));  // created on first touch, on the hot path
      std::vector<float> pulled(batch.size() * kDim);
      w.Wait(w.Pull(batch, pulled));  // values only grow: every update is +1
      for (float v : pulled) wrong[w.id()] += v < 1.0f;
      w.ResolveDirect(own, &rows);
      w.ApplyDirect(rows, ones);
    }
    w.Barrier();
    if (w.id() == 0) {
      std::vector<float> out(kOwn * kWorkers * kDim);
      std::vector<Key> all;
      for (uint32_t i = 0; i < kOwn * kWorkers; ++i) all.push_back((Key{1} << 50) + i);
      w.Wait(w.Pull(all, out));
      for (float v : out) wrong[0] += v != float{kRounds};
    }
    w.Barrier();
  });
  for (int n : wrong) CHECK(n == 0);
  // Shared keys: 16 pushes of 1 per round per worker.
  MetricsSnapshot m = c.nodes[0]->Metrics();
  CHECK(m[WorkerCounter::kRemoteAccesses] == 0);
  CHECK(m[NodeCounter::kMessagesSent] == 0);
  double total = 0;
  c.nodes[0]->store().ForEach([&](Key k, ParamStore::Entry& e) {
    if (k < kShared) total += e.value[0];
  });
  CHECK(total == double{kWorkers} * kRounds * 16);
}

TEST_CASE("two adaptive nodes: hot-path pushes racing with relocations lose nothing",
          "[tcp][stress]") {
  constexpr uint32_t kWorkers = 2, kRounds = 300, kKeys = 96;
  Cluster c(2, kWorkers, "adaptive");
  std::vector<uint64_t> local(4, 0);
  std::vector<float> final_values;
  c.Run([&](uint32_t r, Worker& w) {
    const uint32_t g = r * kWorkers + w.id();
    Rng rng(DeriveSeed(5, g, 0));
    REQUIRE_FALSE(w.DirectAccess());
    const std::vector<float> ones(2 * kDim, 1.0f);
    std::vector<float> seen(2 * kDim);
    for (uint32_t round = 0; round < kRounds; ++round) {
      // Intent moves keys towards this node while others push to them.
      const Key next = rng.Below(kKeys);
      w.Intent(std::span<const Key>(&next, 1), w.clock() + 1, w.clock() + 3);
      const Key k = rng.Below(kKeys);
      const Key pair[2] = {k, (k + 1) % kKeys};
      w.Push(pair, ones);
      w.Wait(w.Pull(pair, seen));
      w.AdvanceClock();
    }
    local[g] = w.local_accesses();
    // Flush every replica, then refresh them once all flushes are in: a
    // replica read below holds every update.
    w.WaitSync();
    w.Barrier();
    w.WaitSync();
    w.Barrier();
    if (r == 0 && w.id() == 0) {
      std::vector<Key> all;
      for (Key k = 0; k < kKeys; ++k) all.push_back(k);
      final_values.assign(kKeys * kDim, 0);
      w.Wait(w.Pull(all, final_values));
    }
    w.Barrier();
  });
  double total = 0;
  for (float v : final_values) total += v;
  CHECK(total == double{4} * kRounds * 2 * kDim);  // every push exactly once
  uint64_t hot = 0;
  for (uint64_t n : local) hot += n;
  CHECK(hot > 0);  // some accesses took the hot path
}

}  // namespace
}  // namespace augur::tcp

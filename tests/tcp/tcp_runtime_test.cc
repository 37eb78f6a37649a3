// TcpRuntime end to end inside one process: two nodes over real loopback
// sockets, real worker threads; every push is applied exactly once, and a
// clean shutdown drains without errors; a worker parked at a barrier is
// released by Abandon() and its waits fail from then on. (Also run under
// ThreadSanitizer.)
#include "backends/tcp/tcp_runtime.h"

#include <catch2/catch.hpp>
#include <memory>
#include <thread>
#include <vector>

#include "tests/tcp/free_port.h"

namespace augur::tcp {
namespace {

// Two or more TCP nodes of this process, started (every Start checked).
// Destroyed runtimes first (their I/O threads stop before the nodes go).
struct Cluster {
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<std::unique_ptr<TcpRuntime>> runtimes;
};

Cluster StartCluster(uint32_t node_count, uint32_t workers, uint32_t dim, const char* cluster_id,
                     double rank1_latency_seconds) {
  ListeningSocket listener = FreePort();
  const uint16_t port = listener.port();
  Cluster c;
  for (uint32_t r = 0; r < node_count; ++r) {
    TcpOptions o;
    o.rank = r;
    o.nodes = node_count;
    o.coordinator_port = port;
    if (r == 0) o.coordinator_listen_fd = listener.Release();
    o.cluster_id = cluster_id;
    o.secret = std::vector<uint8_t>(32, 0x42);
    o.peer_timeout_seconds = 60;
    o.emulate_latency_seconds = r == 1 ? rank1_latency_seconds : 0;
    c.runtimes.push_back(std::make_unique<TcpRuntime>(o));
    NodeOptions no;
    no.workers = workers;
    no.layout = ValueLayout(dim);
    c.nodes.push_back(std::make_unique<Node>(no, *c.runtimes.back()));
  }
  std::vector<Status> start(node_count);
  {
    std::vector<std::thread> starters;
    for (uint32_t r = 0; r < node_count; ++r)
      starters.emplace_back([&, r] { start[r] = c.runtimes[r]->Start(c.nodes[r].get()); });
    for (auto& t : starters) t.join();
  }
  for (const Status& st : start) REQUIRE(st.ok());
  return c;
}

TEST_CASE("two nodes over TCP keep the sum invariant", "[tcp][runtime]") {
  constexpr uint32_t kNodes = 2, kWorkers = 2, kKeys = 64, kDim = 3, kRounds = 20;
  // Rank 1 delays its sends: exercises the delay queue too.
  Cluster cluster = StartCluster(kNodes, kWorkers, kDim, "runtime-test", 50e-6);
  std::vector<std::unique_ptr<TcpRuntime>>& runtimes = cluster.runtimes;
  std::vector<std::unique_ptr<Node>>& nodes = cluster.nodes;

  std::vector<Key> keys;
  for (Key k = 0; k < kKeys; ++k) keys.push_back(k * 1000003);
  std::vector<float> bad(kNodes, 0);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < kNodes; ++r) {
    for (WorkerId w = 0; w < kWorkers; ++w) {
      threads.emplace_back([&, r, w] {
        Worker& worker = nodes[r]->worker(w);
        const std::vector<float> ones(kKeys * kDim, 1.f);
        for (uint32_t i = 0; i < kRounds; ++i) worker.Push(keys, ones);
        worker.WaitAll();
        worker.Barrier();
        if (w == 0) {
          std::vector<float> out(kKeys * kDim);
          worker.Wait(worker.Pull(keys, out));
          for (float v : out) bad[r] += v != float{kNodes * kWorkers * kRounds};
        }
        worker.Barrier();
      });
    }
  }
  for (auto& t : threads) t.join();
  std::vector<Status> finish(kNodes);
  {
    std::vector<std::thread> finishers;
    for (uint32_t r = 0; r < kNodes; ++r)
      finishers.emplace_back([&, r] { finish[r] = runtimes[r]->Finish(); });
    for (auto& t : finishers) t.join();
  }
  for (uint32_t r = 0; r < kNodes; ++r) {
    INFO("rank " << r);
    CHECK(finish[r].ok());
    CHECK(bad[r] == 0);
  }
  runtimes.clear();  // I/O threads stop before the nodes go away
}

TEST_CASE("an abandoned node releases its parked workers with an error", "[tcp][runtime]") {
  constexpr uint32_t kNodes = 2;
  Cluster cluster = StartCluster(kNodes, 1, 2, "cancel-test", 0);
  std::vector<std::unique_ptr<TcpRuntime>>& runtimes = cluster.runtimes;
  std::vector<std::unique_ptr<Node>>& nodes = cluster.nodes;

  // Rank 0's worker never reaches the barrier, so rank 1's worker parks
  // there until its runtime abandons the node.
  Worker& w = nodes[1]->worker(0);
  Status barrier, later_wait, later_barrier;
  bool cancelled_after = false;
  std::thread worker([&] {
    barrier = w.Barrier();
    cancelled_after = w.cancelled();
    std::vector<Key> keys;  // homed at rank 0: a remote pull, never answered now
    for (Key k = 0; keys.size() < 4; ++k)
      if (nodes[1]->HomeOf(k) == 0) keys.push_back(k);
    std::vector<float> out(keys.size() * 2);
    later_wait = w.Wait(w.Pull(keys, out));
    later_barrier = w.Barrier();
  });
  CHECK_FALSE(w.cancelled());
  runtimes[1]->Abandon();
  worker.join();
  CHECK_FALSE(barrier.ok());
  CHECK(barrier.message().find("cancelled") != std::string::npos);
  CHECK(cancelled_after);
  CHECK_FALSE(later_wait.ok());
  CHECK_FALSE(later_barrier.ok());
  CHECK(nodes[0]->worker(0).cancelled() == false);  // only the abandoned node
  runtimes.clear();                                 // I/O threads stop before the nodes go away
}

TEST_CASE("a node that stopped early waits for the goodbyes of its peers only as long as told",
          "[tcp][runtime]") {
  // A diverged process stops while its peer still trains and waits for it at
  // a barrier: the peer never says goodbye, and an unbounded Finish would hang.
  Cluster cluster = StartCluster(2, 1, 2, "stopped-early-test", 0);
  std::vector<std::unique_ptr<TcpRuntime>>& runtimes = cluster.runtimes;
  std::vector<std::unique_ptr<Node>>& nodes = cluster.nodes;
  Status peer_barrier;
  std::thread peer([&] { peer_barrier = nodes[1]->worker(0).Barrier(); });  // waits for rank 0
  const Status finish = runtimes[0]->Finish(0.2);
  CHECK_FALSE(finish.ok());
  CHECK(finish.message().find("no goodbye from every peer within 0.2 s") != std::string::npos);
  runtimes[1]->Abandon();  // the peer's barrier ends (as lost rank 0 would end it)
  peer.join();
  CHECK_FALSE(peer_barrier.ok());
  runtimes.clear();  // I/O threads stop before the nodes go away
}

}  // namespace
}  // namespace augur::tcp

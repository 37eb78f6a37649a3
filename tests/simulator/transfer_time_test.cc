// Simulated transfer time of one large message vs. bandwidth/latency arithmetic.
//
// One SimGrid engine per process: each TEST_CASE runs in its own process
// (catch_discover_tests), so every case builds exactly one SimCluster.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include "core/protocol/home.h"
#include "simulator/sim_cluster.h"

namespace augur {
namespace {

// Two nodes with one worker each on a star of links with this bandwidth and
// latency, `dim` floats per key.
SimClusterOptions TwoNodeStarOptions(double bandwidth, double latency, uint32_t dim) {
  SimClusterOptions o;
  o.nodes = 2;
  o.node.workers = 1;
  o.node.layout = ValueLayout(dim);
  o.sim.platform = "star";
  o.sim.link_bandwidth_bytes_per_second = bandwidth;
  o.sim.link_latency_seconds = latency;
  o.sim.progress = false;
  return o;
}

std::unique_ptr<SimCluster> Create(const SimClusterOptions& o) {
  Result<std::unique_ptr<SimCluster>> c = SimCluster::Create(o);
  REQUIRE(c.ok());
  return std::move(*c);
}

std::unique_ptr<SimCluster> TwoNodeStar(double bandwidth, double latency, uint32_t dim) {
  return Create(TwoNodeStarOptions(bandwidth, latency, dim));
}

// Node 0's worker pushes `keys` values of `dim` floats homed at node 1 and waits
// for the ack: two messages, each crossing two links of the star
// (2 x latency + bytes / bandwidth), and nothing else in flight. With a
// token bucket of `burst` bytes on the links (queued_byte_burst; full, as a
// link starts idle) the bytes within it cross without waiting for the link,
// as tc tbf passes a burst (nic.h), so only the push's bytes beyond it take
// their time on the link (the ack, a few bytes, fits node 1's full bucket).
void CheckPushRoundTrip(double bandwidth, double latency, uint32_t keys, uint32_t dim,
                        double burst = 0) {
  SimClusterOptions o = TwoNodeStarOptions(bandwidth, latency, dim);
  o.sim.costs.queued_byte_burst = burst;
  std::unique_ptr<SimCluster> c = Create(o);
  std::vector<Key> remote;
  for (Key k = 1; remote.size() < keys; ++k)
    if (HomeNode(k, 2) == 1) remote.push_back(k);
  double finished = -1;
  Status s = c->Run([&](Worker& w) {
    if (w.node_id() != 0) return;
    std::vector<float> values(size_t{keys} * dim, 1.0f);
    w.Wait(w.Push(remote, values));
    finished = w.Now();
  });
  REQUIRE(s.ok());
  const SimRunStats& st = c->stats();
  REQUIRE(st.messages == 2);  // the push and its ack
  const double waiting = std::max(0.0, static_cast<double>(st.bytes) - burst);
  const double expected = 4 * latency + waiting / bandwidth;
  INFO("bytes " << st.bytes << " burst " << burst << " expected " << expected << " s, simulated "
                << finished << " s");
  CHECK(std::abs(finished - expected) <= 0.01 * expected);
}

TEST_CASE("4 MB push over 10 Gbit per s and 5 us links matches the arithmetic within 1 percent",
          "[sim]") {
  CheckPushRoundTrip(1.25e9, 5e-6, 16384, 64);
}

TEST_CASE("1 MB push over 100 Gbit per s and 0.6 us links matches the arithmetic within 1 percent",
          "[sim]") {
  CheckPushRoundTrip(12.5e9, 0.6e-6, 4096, 64);
}

// 100 Mbit/s and 100 us links, a push of about 260 KB.
TEST_CASE("a push within the link's burst crosses without waiting for the link", "[sim]") {
  CheckPushRoundTrip(12.5e6, 100e-6, 1024, 64, /*burst=*/1e6);
}

TEST_CASE("only a push's bytes beyond the link's burst wait for the link", "[sim]") {
  CheckPushRoundTrip(12.5e6, 100e-6, 1024, 64, /*burst=*/64 * 1024);
}

// Node 0's worker issues three pushes of the same size to node 1 at once and
// then waits for each. The NIC sends them back to back; a frame must reach
// node 1 when its own bytes have crossed the link, even when it left in one
// parcel with the frames queued behind it (nic.h). So push i's ack is back
// after i transmission times plus the two messages' latencies, not after
// the whole parcel's transmission.
TEST_CASE("frames queued together arrive one by one as their own bytes cross the link", "[sim]") {
  const double bandwidth = 12.5e6, latency = 100e-6;  // 100 Mbit/s, 100 us per link
  const uint32_t keys = 4096, dim = 64;               // about 1 MB per push
  std::unique_ptr<SimCluster> c = TwoNodeStar(bandwidth, latency, dim);
  std::vector<std::vector<Key>> pushes(3);
  Key k = 1;
  for (auto& p : pushes)
    while (p.size() < keys)
      if (HomeNode(++k, 2) == 1) p.push_back(k);
  std::vector<double> done;
  Status s = c->Run([&](Worker& w) {
    if (w.node_id() != 0) return;
    std::vector<float> values(size_t{keys} * dim, 1.0f);
    std::vector<Ticket> tickets;
    for (const auto& p : pushes) tickets.push_back(w.Push(p, values));
    for (Ticket t : tickets) {
      w.Wait(t);
      done.push_back(w.Now());
    }
  });
  REQUIRE(s.ok());
  const SimRunStats& st = c->stats();
  REQUIRE(st.messages == 6);  // three pushes and their acks
  const double per_push = static_cast<double>(st.bytes) / 3 / bandwidth;  // acks: a few bytes
  for (size_t i = 0; i < done.size(); ++i) {
    const double expected = static_cast<double>(i + 1) * per_push + 4 * latency;
    INFO("push " << i << ": expected " << expected << " s, simulated " << done[i] << " s");
    CHECK(std::abs(done[i] - expected) <= 0.01 * expected);
  }
}

// Node 0's worker issues three pushes of about 1 MB to node 1 at once and then
// computes for 1 s on its 1-core host. Its link takes `burst` bytes at once
// (the token bucket is full and the link stays busy until all three have
// crossed, so it never refills); every byte beyond waited, and the NIC charges
// it seconds_per_queued_byte of CPU on node 0's host while it crosses
// (nic.h). That CPU shares the core with the worker's compute, which
// therefore ends later by exactly the queued bytes' CPU (processor sharing:
// both progress at half speed while both run). A message's handling costs
// `per_message` plus `per_byte` for each of its bytes (the acks' handling,
// 3 x per_message, is within the tolerance of the compute's end).
// What the model charged each node's host is its CPU
// (SimCluster::ChargedCpuSeconds, read by jobs through Worker::NodeCpuSeconds
// into result.json): node 0's the compute, the waiting bytes and the three
// acks' handling; node 1's the three pushes' handling.
void CheckQueuedBytesCpu(double burst, double per_message = 0, double per_byte = 0) {
  const double bandwidth = 12.5e6, latency = 100e-6, queued = 50e-9, compute = 1.0;
  const uint32_t keys = 4096, dim = 64;
  SimClusterOptions o = TwoNodeStarOptions(bandwidth, latency, dim);
  o.sim.host_cores = 1;
  o.sim.costs.seconds_per_message = per_message;
  o.sim.costs.seconds_per_message_byte = per_byte;
  o.sim.costs.seconds_per_queued_byte = queued;
  o.sim.costs.queued_byte_burst = burst;
  std::unique_ptr<SimCluster> c = Create(o);
  std::vector<std::vector<Key>> pushes(3);
  Key k = 1;
  for (auto& p : pushes)
    while (p.size() < keys)
      if (HomeNode(++k, 2) == 1) p.push_back(k);
  double computed = -1, cpu_seen_by_worker = -1;
  Status s = c->Run([&](Worker& w) {
    if (w.node_id() != 0) return;
    std::vector<float> values(size_t{keys} * dim, 1.0f);
    std::vector<Ticket> tickets;
    for (const auto& p : pushes) tickets.push_back(w.Push(p, values));
    const double start = w.Now();
    w.Compute(compute);
    computed = w.Now() - start;
    for (Ticket t : tickets) w.Wait(t);
    cpu_seen_by_worker = w.NodeCpuSeconds();
  });
  REQUIRE(s.ok());
  const SimRunStats& st = c->stats();
  REQUIRE(st.messages == 6);  // three pushes and their acks
  REQUIRE(st.timers == 0);    // no replicas: no sync timer charges either node
  REQUIRE(static_cast<double>(st.bytes) > burst + 1e5);
  // The acks, a few bytes each, are in st.bytes too and far inside the tolerances.
  const double bytes = static_cast<double>(st.bytes);
  const double queued_cpu = queued * (bytes - burst);
  INFO("burst " << burst << " B, queued CPU " << queued_cpu << " s, compute took " << computed
                << " s");
  CHECK(std::abs(computed - (compute + queued_cpu)) <= 0.01 * queued_cpu);
  const double node0 = compute + queued_cpu + 3 * per_message;
  const double node1 = 3 * per_message + per_byte * bytes;
  INFO("node 0 charged " << c->ChargedCpuSeconds(0) << " s (expected " << node0 << "), node 1 "
                         << c->ChargedCpuSeconds(1) << " s (expected " << node1 << ")");
  CHECK(std::abs(c->ChargedCpuSeconds(0) - node0) <= 1e-5 * node0);
  // Node 1's acks wait for its link too when it has no burst: 3 x ~44 B x 50 ns.
  CHECK(std::abs(c->ChargedCpuSeconds(1) - node1) <= 1e-3 * node1 + 1e-5);
  CHECK(cpu_seen_by_worker == c->ChargedCpuSeconds(0));
}

TEST_CASE("bytes that wait for a busy link cost their sender CPU beside the worker", "[sim]") {
  CheckQueuedBytesCpu(0);
}

TEST_CASE("only the bytes beyond the link's burst wait and cost their sender CPU", "[sim]") {
  CheckQueuedBytesCpu(2e6);
}

TEST_CASE("a node's charged CPU is its compute, its message handling and its waiting bytes",
          "[sim]") {
  CheckQueuedBytesCpu(64e3, 20e-6, 0.5e-9);
}

}  // namespace
}  // namespace augur

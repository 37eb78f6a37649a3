// Simulated transfer time of one large message vs. bandwidth/latency arithmetic.
//
// One SimGrid engine per process: each TEST_CASE runs in its own process
// (catch_discover_tests), so every case builds exactly one SimCluster.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/protocol/home.h"
#include "simulator/sim_cluster.h"

namespace augur {
namespace {

// Node 0's worker pushes `keys` values of `dim` floats homed at node 1 and waits
// for the ack: two messages, each crossing two links of the star
// (2 x latency + bytes / bandwidth), and nothing else in flight.
void CheckPushRoundTrip(double bandwidth, double latency, uint32_t keys, uint32_t dim) {
  SimClusterOptions o;
  o.nodes = 2;
  o.node.workers = 1;
  o.node.layout = ValueLayout(dim);
  o.sim.platform = "star";
  o.sim.link_bandwidth_bytes_per_second = bandwidth;
  o.sim.link_latency_seconds = latency;
  o.sim.progress = false;
  Result<std::unique_ptr<SimCluster>> c = SimCluster::Create(o);
  REQUIRE(c.ok());
  std::vector<Key> remote;
  for (Key k = 1; remote.size() < keys; ++k)
    if (HomeNode(k, 2) == 1) remote.push_back(k);
  double finished = -1;
  Status s = (*c)->Run([&](Worker& w) {
    if (w.node_id() != 0) return;
    std::vector<float> values(size_t{keys} * dim, 1.0f);
    w.Wait(w.Push(remote, values));
    finished = w.Now();
  });
  REQUIRE(s.ok());
  const SimRunStats& st = (*c)->stats();
  REQUIRE(st.messages == 2);  // the push and its ack
  const double expected = 4 * latency + static_cast<double>(st.bytes) / bandwidth;
  INFO("bytes " << st.bytes << " expected " << expected << " s, simulated " << finished << " s");
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

}  // namespace
}  // namespace augur

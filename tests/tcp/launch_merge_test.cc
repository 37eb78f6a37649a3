// Launch helpers: merging rank results and reading hostfiles.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "experiments/launch/hostfile.h"
#include "experiments/launch/result_merge.h"

namespace augur {
namespace {

nlohmann::json Rank(int r, uint64_t bytes, uint64_t local, uint64_t remote, bool verified) {
  return {{"rank", r},
          {"backend", "tcp"},
          {"nodes", 2},
          {"bytes_sent", bytes},
          {"messages_sent", 10},
          {"samples", 100},
          {"local_accesses", local},
          {"remote_accesses", remote},
          {"intents", 0},
          {"relocations", 3 + r},
          {"replica_syncs", 10 * r},
          {"late_accesses", 4},
          {"wait_seconds", 0.5},
          {"bytes_sent_per_node", {bytes}},
          {"epoch_seconds", r == 0 ? nlohmann::json{1.5} : nlohmann::json::array()},
          {"total_seconds", r == 0 ? 1.5 : 0.0},
          {"wall_seconds", 2.0 + r},
          {"verified", verified},
          {"config", {{"tcp", {{"rank", r}}}}}};
}

TEST_CASE("rank results merge into one cluster result", "[tcp][launch]") {
  Result<nlohmann::json> m =
      MergeRankResults({Rank(0, 100, 30, 10, true), Rank(1, 50, 10, 50, true)});
  REQUIRE(m.ok());
  CHECK((*m)["backend"] == "tcp");
  CHECK((*m)["nodes"] == 2);
  CHECK((*m)["bytes_sent"] == 150);
  CHECK((*m)["samples"] == 200);
  CHECK((*m)["local_access_ratio"].get<double>() == Approx(40.0 / 100.0));
  CHECK((*m)["relocations"] == 7);  // every rank's own counters, summed
  CHECK((*m)["replica_syncs"] == 10);
  CHECK((*m)["late_access_ratio"].get<double>() == Approx(8.0 / 100.0));
  CHECK((*m)["wait_seconds"].get<double>() == Approx(1.0));
  CHECK((*m)["epoch_seconds"].size() == 1);
  CHECK((*m)["wall_seconds"] == 3.0);
  CHECK((*m)["verified"] == true);
  CHECK((*m)["bytes_sent_per_node"] == nlohmann::json({100, 50}));
  CHECK_FALSE((*m).contains("rank"));
  m = MergeRankResults({Rank(0, 1, 1, 1, true), Rank(1, 1, 1, 1, false)});
  REQUIRE(m.ok());
  CHECK((*m)["verified"] == false);
  CHECK_FALSE(MergeRankResults({Rank(1, 1, 1, 1, true)}).ok());  // not rank 0's
}

TEST_CASE("per-epoch process costs merge epoch by epoch, or not at all", "[tcp][launch]") {
  nlohmann::json r0 = Rank(0, 100, 30, 10, true), r1 = Rank(1, 50, 10, 50, true);
  r0["epoch_process_cpu_seconds"] = {1.0, 2.0};
  r1["epoch_process_cpu_seconds"] = {0.5, 0.25};
  r0["epoch_messages_sent"] = {10, 20};
  r1["epoch_messages_sent"] = {1, 2};
  Result<nlohmann::json> m = MergeRankResults({r0, r1});
  REQUIRE(m.ok());
  CHECK((*m)["epoch_process_cpu_seconds"] == nlohmann::json({1.5, 2.25}));
  CHECK((*m)["epoch_messages_sent"] == nlohmann::json({11.0, 22.0}));
  CHECK_FALSE((*m).contains("epoch_bytes_sent"));  // no rank has it
  // A rank with fewer epochs (it stopped early): no cluster figure, not rank 0's.
  r1["epoch_process_cpu_seconds"] = {0.5};
  m = MergeRankResults({r0, r1});
  REQUIRE(m.ok());
  CHECK_FALSE((*m).contains("epoch_process_cpu_seconds"));
  r1.erase("epoch_process_cpu_seconds");
  m = MergeRankResults({r0, r1});
  REQUIRE(m.ok());
  CHECK_FALSE((*m).contains("epoch_process_cpu_seconds"));
}

// Regression (found by tests/fuzz rank_results): a rank result with a
// field of the wrong type threw nlohmann::json::type_error through
// MergeRankResults and terminated `augur launch`.
TEST_CASE("rank results with mistyped fields are refused, not thrown", "[tcp][launch]") {
  nlohmann::json fuzzed = Rank(0, 100, 30, 10, true);
  fuzzed["rank"] = nlohmann::json::parse("[0.5]");  // the fuzzer's crashing input
  nlohmann::json tcp_number = Rank(0, 100, 30, 10, true);
  tcp_number["config"]["tcp"] = 5;
  nlohmann::json detail_number = Rank(1, 50, 10, 50, false);
  detail_number["verify_detail"] = 3;
  nlohmann::json bytes_text = Rank(1, 50, 10, 50, true);
  bytes_text["bytes_sent"] = "many";
  // Numbers that are not counts: converting them to one would be undefined
  // (fuzzing found "rank": 7.8e36 under UBSan).
  nlohmann::json huge_rank = Rank(0, 100, 30, 10, true);
  huge_rank["rank"] = 7.8e36;
  nlohmann::json negative_samples = Rank(1, 50, 10, 50, true);
  negative_samples["samples"] = -5;
  nlohmann::json float_bytes = Rank(1, 50, 10, 50, true);
  float_bytes["bytes_sent"] = 1e30;
  for (const auto& ranks : {std::vector{fuzzed, Rank(1, 50, 10, 50, true)},
                            std::vector{tcp_number, Rank(1, 50, 10, 50, true)},
                            std::vector{Rank(0, 100, 30, 10, true), detail_number},
                            std::vector{Rank(0, 100, 30, 10, true), bytes_text},
                            std::vector{huge_rank, Rank(1, 50, 10, 50, true)},
                            std::vector{Rank(0, 100, 30, 10, true), negative_samples},
                            std::vector{Rank(0, 100, 30, 10, true), float_bytes}}) {
    Result<nlohmann::json> m = MergeRankResults(ranks);
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(m.status().message(), Catch::Contains("wrong type"));
  }
}

TEST_CASE("hostfile slots expand to ranks", "[tcp][launch]") {
  const std::string path = "hostfile_test_" + std::to_string(::getpid()) + ".txt";
  {
    std::ofstream f(path);
    f << "# cluster\nnode1\nnode2 slots=2\n\nnode3 3  # trailing comment\n";
  }
  Result<std::vector<std::string>> h = ReadHostfile(path);
  REQUIRE(h.ok());
  CHECK(*h == std::vector<std::string>{"node1", "node2", "node2", "node3", "node3", "node3"});
  {
    std::ofstream f(path);
    f << "node1 slots=zero\n";
  }
  h = ReadHostfile(path);
  REQUIRE_FALSE(h.ok());
  CHECK(h.status().message().find(":1:") != std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace augur

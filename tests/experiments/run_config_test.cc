// RunConfig: the default policy, and result.json's config showing
// only what applies to the chosen backend and workload. Unit label: fast.
#include "experiments/config/run_config.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "experiments/partition/work_split.h"

namespace augur {
namespace {

TEST_CASE("the default policy is adaptive", "[config]") {
  RunConfig c;
  REQUIRE(c.Validate().ok());
  CHECK(c.policy == "adaptive");
  CHECK(c.ToJson()["policy"] == "adaptive");
}

TEST_CASE("the default partition blocks mf and clusters kge and wv on several nodes", "[config]") {
  RunConfig c;
  CHECK(c.partition == "auto");
  for (const char* workload : {"mf", "kge", "wv", "zipf"}) {
    c.workload = workload;
    CHECK(c.Validate().ok());
  }
  CHECK(ResolvePartition("auto", "mf", /*nodes=*/2) == "block");
  CHECK(ResolvePartition("auto", "mf", /*nodes=*/1) == "random");
  for (const char* workload : {"kge", "wv"}) {
    CHECK(ResolvePartition("auto", workload, 2) == "graph");
    CHECK(ResolvePartition("auto", workload, 1) == "random");
  }
  for (const char* workload : {"kge", "wv"}) {
    INFO(workload);
    // local negatives come from the node's keys: a graph cluster would bias them
    CHECK(ResolvePartition("auto", workload, 8, "local") == "random");
    CHECK(ResolvePartition("auto", workload, 8, "pool") == "graph");
    CHECK(ResolvePartition("graph", workload, 8, "local") == "graph");  // an explicit choice stays
  }
  CHECK(ResolvePartition("auto", "zipf", 2) == "random");
  CHECK(ResolvePartition("auto", "zipf", 1) == "random");
  CHECK(ResolvePartition("random", "kge", 2) == "random");
  CHECK(ResolvePartition("graph", "mf", 2) == "graph");  // an explicit choice stays
  CHECK(ResolvePartition("random", "mf", 2) == "random");
  RunConfig wrong;
  wrong.workload = "kge";
  wrong.partition = "block";
  CHECK_FALSE(wrong.Validate().ok());
  wrong.partition = "blocks";
  CHECK_FALSE(wrong.Validate().ok());
}

TEST_CASE("kge signals intent 2 batches ahead by default and the others 32 but --lookahead wins",
          "[config]") {
  for (const char* workload : {"kge", "wv", "mf", "zipf"}) {
    RunConfig c;
    c.workload = workload;
    REQUIRE(c.Validate().ok());
    const uint32_t expected = std::string(workload) == "kge" ? RunConfig::kKgeLookahead : 32;
    CHECK(c.zipf.lookahead == expected);
    CHECK(c.ToJson()["lookahead"] == expected);
    c.lookahead = 7;
    REQUIRE(c.Validate().ok());
    CHECK(c.zipf.lookahead == 7);
    c.lookahead = 0;  // no intent at all is a choice too
    REQUIRE(c.Validate().ok());
    CHECK(c.zipf.lookahead == 0);
  }
  RunConfig huge;
  huge.lookahead = int64_t{1} << 40;
  CHECK_FALSE(huge.Validate().ok());
}

TEST_CASE("replica clipping defaults to factor 2 for wv and 4 for mf but --replica-clip wins",
          "[config]") {
  for (const char* workload : {"wv", "mf"}) {
    RunConfig c;
    c.workload = workload;
    c.nodes = 2;  // a cluster: the json carries the management options
    REQUIRE(c.Validate().ok());
    const double expected = std::string(workload) == "mf" ? 4.0 : 2.0;
    CHECK(c.ReplicaClip() == expected);
    CHECK(c.ToJson()["replica_clip"] == expected);
    c.replica_clip = 0;  // off is a choice
    REQUIRE(c.Validate().ok());
    CHECK(c.ReplicaClip() == 0);
    c.replica_clip = 3;
    REQUIRE(c.Validate().ok());
    CHECK(c.ReplicaClip() == 3);
    c.replica_clip = 0.5;  // a factor below 1 would clip every flush
    CHECK_FALSE(c.Validate().ok());
    c.replica_clip = -2;
    CHECK_FALSE(c.Validate().ok());
  }
}

TEST_CASE("config json shows only the chosen workload's options", "[config]") {
  RunConfig c;
  c.workload = "mf";
  REQUIRE(c.Validate().ok());
  nlohmann::json j = c.ToJson();
  CHECK(j.contains("mf"));
  CHECK_FALSE(j.contains("kge"));
  CHECK_FALSE(j.contains("wv"));
  CHECK_FALSE(j.contains("zipf"));
  CHECK_FALSE(j.contains("sampling"));  // mf draws no negatives
  CHECK(j.dump().find("negatives") == std::string::npos);
  CHECK(j.contains("lookahead"));  // every PS workload signals intent

  c.workload = "zipf";
  j = c.ToJson();
  CHECK(j.contains("zipf"));
  CHECK_FALSE(j.contains("kge"));
  CHECK_FALSE(j.contains("data_dir"));
  CHECK(j["zipf"]["dim"] == 16);

  c.workload = "kge";
  j = c.ToJson();
  CHECK(j.contains("kge"));
  CHECK(j.contains("sampling"));
  CHECK_FALSE(j.contains("mf"));
}

TEST_CASE("a single-node config has no cluster options", "[config]") {
  RunConfig c;
  c.backend = "single";
  c.workload = "kge";
  c.nodes = 1;
  REQUIRE(c.Validate().ok());
  const nlohmann::json j = c.ToJson();
  for (const char* key : {"policy", "sync_period_seconds", "replicate", "sampling", "checkpoint",
                          "network", "lookahead", "verify"}) {
    INFO(key);
    CHECK_FALSE(j.contains(key));
  }
  CHECK(j.contains("kge"));
  c.checkpoint_dir = "/tmp/x";
  const Status s = c.Validate();
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("--backend") == std::string::npos);  // the user gave no --backend
  CHECK(s.message().find("augur single has no checkpoints") != std::string::npos);
}

}  // namespace
}  // namespace augur

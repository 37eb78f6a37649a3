// Checkpoints: the format and files round trip; a checkpointed
// loopback run resumed onto other node counts passes --verify (the sum
// invariant over the pushes before and after the checkpoint); a corrupted or
// mismatched checkpoint is refused with a message naming the file and problem.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "experiments/checkpoint/checkpoint_files.h"
#include "experiments/checkpoint/checkpoint_format.h"
#include "experiments/drivers/loopback_driver.h"
#include "experiments/jobs/job.h"
#include "tests/experiments/tiny_data.h"

namespace augur {
namespace {

using testing::TempDir;

std::vector<CheckpointRow> SomeRows(uint32_t node, uint32_t n, uint32_t floats) {
  std::vector<CheckpointRow> rows;
  for (uint32_t i = 0; i < n; ++i) {
    CheckpointRow r{Mix64(node * 1000 + i), std::vector<float>(floats)};
    for (uint32_t f = 0; f < floats; ++f) r.floats[f] = static_cast<float>(i) + 0.25f * f;
    rows.push_back(std::move(r));
  }
  return rows;
}

CheckpointManifest TwoNodeManifest(uint32_t epoch) {
  CheckpointManifest m;
  m.nodes = 2;
  m.workers = 3;
  m.epoch = epoch;
  m.clock = 40;
  m.workload = "zipf";
  m.fingerprint = nlohmann::json{{"keys", 100}};
  return m;
}

// Writes a two-node checkpoint of epoch 1 into dir; returns its ckpt-1 path.
std::string WriteTwoNodeCheckpoint(const std::string& dir) {
  REQUIRE(PrepareCheckpoint(dir, 1).ok());
  REQUIRE(WriteNodeCheckpoint(dir, 1, 0, SomeRows(0, 5, 3)).ok());
  REQUIRE(WriteNodeCheckpoint(dir, 1, 1, SomeRows(1, 7, 3)).ok());
  Status s = CommitCheckpoint(dir, TwoNodeManifest(1));
  INFO(s.message());
  REQUIRE(s.ok());
  return dir + "/ckpt-1";
}

std::string LoadError(const std::string& path) {
  Result<LoadedCheckpoint> c = LoadCheckpoint(path);
  REQUIRE_FALSE(c.ok());
  return c.status().message();
}

TEST_CASE("checkpoint row files round trip and check their manifest entry", "[checkpoint]") {
  const std::vector<CheckpointRow> rows = SomeRows(3, 9, 4);
  CheckpointFile f;
  const std::vector<uint8_t> bytes = EncodeNodeRows(3, rows, &f);
  CHECK(f.name == "node-3.rows");
  CHECK(f.rows == 9);
  CHECK(f.bytes == bytes.size());
  std::vector<CheckpointRow> back;
  REQUIRE(DecodeNodeRows(bytes, f, &back).ok());
  REQUIRE(back.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(back[i].key == rows[i].key);
    CHECK(back[i].floats == rows[i].floats);
  }
  std::vector<uint8_t> flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  back.clear();
  CHECK_THAT(DecodeNodeRows(flipped, f, &back).message(), Catch::Contains("checksum"));
  const std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 5);
  CHECK_THAT(DecodeNodeRows(cut, f, &back).message(), Catch::Contains("truncated"));
}

// Regression (found by tests/fuzz checkpoint under UBSan): a row of zero
// floats passed a null pointer to memcpy when decoded.
TEST_CASE("checkpoint rows of zero floats round trip", "[checkpoint]") {
  const std::vector<CheckpointRow> rows = {{7, {}}, {9, {1.5f}}, {11, {}}};
  CheckpointFile f;
  const std::vector<uint8_t> bytes = EncodeNodeRows(0, rows, &f);
  std::vector<CheckpointRow> back;
  REQUIRE(DecodeNodeRows(bytes, f, &back).ok());
  REQUIRE(back.size() == 3);
  CHECK(back[0].floats.empty());
  CHECK(back[1].floats == std::vector<float>{1.5f});
  CHECK(back[2].key == 11);
}

TEST_CASE("a committed checkpoint loads through LATEST with every row", "[checkpoint]") {
  TempDir d("ckpt-roundtrip");
  const std::string ckpt = WriteTwoNodeCheckpoint(d.path());
  CHECK_FALSE(std::filesystem::exists(d.File("ckpt-1.tmp")));
  Result<LoadedCheckpoint> c = LoadCheckpoint(d.path());
  INFO(c.status().message());
  REQUIRE(c.ok());
  CHECK(c->path == ckpt);
  CHECK(c->manifest.nodes == 2);
  CHECK(c->manifest.workers == 3);
  CHECK(c->manifest.epoch == 1);
  CHECK(c->manifest.clock == 40);
  REQUIRE(c->rows.size() == 12);
  CHECK(c->rows[5].key == SomeRows(1, 1, 3)[0].key);
  CHECK(c->rows[11].floats == SomeRows(1, 7, 3)[6].floats);
  // A later checkpoint replaces LATEST; the directory of one loads directly too.
  REQUIRE(PrepareCheckpoint(d.path(), 2).ok());
  REQUIRE(WriteNodeCheckpoint(d.path(), 2, 0, {}).ok());
  REQUIRE(WriteNodeCheckpoint(d.path(), 2, 1, SomeRows(1, 1, 3)).ok());
  REQUIRE(CommitCheckpoint(d.path(), TwoNodeManifest(2)).ok());
  Result<LoadedCheckpoint> latest = LoadCheckpoint(d.path());
  REQUIRE(latest.ok());
  CHECK(latest->manifest.epoch == 2);
  CHECK(latest->rows.size() == 1);
  Result<LoadedCheckpoint> first = LoadCheckpoint(ckpt);
  REQUIRE(first.ok());
  CHECK(first->rows.size() == 12);
}

TEST_CASE("an interrupted checkpoint leaves the previous one in place", "[checkpoint]") {
  TempDir d("ckpt-interrupted");
  WriteTwoNodeCheckpoint(d.path());
  // Epoch 2 crashed after node 0 wrote its part and before the commit.
  REQUIRE(PrepareCheckpoint(d.path(), 2).ok());
  REQUIRE(WriteNodeCheckpoint(d.path(), 2, 0, SomeRows(0, 2, 3)).ok());
  Result<LoadedCheckpoint> c = LoadCheckpoint(d.path());
  REQUIRE(c.ok());
  CHECK(c->manifest.epoch == 1);
  // Committing without node 1's part is refused, naming it.
  CHECK_THAT(CommitCheckpoint(d.path(), TwoNodeManifest(2)).message(),
             Catch::Contains("node 1's part"));
}

TEST_CASE("a corrupted or mismatched checkpoint is refused naming file and problem",
          "[checkpoint]") {
  TempDir d("ckpt-corrupt");
  const std::string ckpt = WriteTwoNodeCheckpoint(d.path());
  const std::string node1 = ckpt + "/node-1.rows";
  const std::string manifest = ckpt + "/manifest.json";
  std::ifstream in(node1, std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto write = [](const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  };

  SECTION("a flipped byte") {
    std::string bad = good;
    bad[40] = static_cast<char>(bad[40] ^ 0x01);
    write(node1, bad);
    const std::string e = LoadError(d.path());
    CHECK_THAT(e, Catch::Contains(node1));
    CHECK_THAT(e, Catch::Contains("checksum"));
  }
  SECTION("a truncated file") {
    write(node1, good.substr(0, good.size() - 7));
    const std::string e = LoadError(d.path());
    CHECK_THAT(e, Catch::Contains(node1));
    CHECK_THAT(e, Catch::Contains("truncated"));
  }
  SECTION("a missing file") {
    std::filesystem::remove(node1);
    CHECK_THAT(LoadError(d.path()), Catch::Contains(node1));
  }
  SECTION("a manifest with the wrong node count") {
    std::ifstream m(manifest);
    nlohmann::json j = nlohmann::json::parse(m);
    j["nodes"] = 3;
    write(manifest, j.dump());
    const std::string e = LoadError(d.path());
    CHECK_THAT(e, Catch::Contains(manifest));
    CHECK_THAT(e, Catch::Contains("nodes 3 but lists 2 node files"));
  }
  SECTION("a manifest of another format version") {
    std::ifstream m(manifest);
    nlohmann::json j = nlohmann::json::parse(m);
    j["version"] = 99;
    write(manifest, j.dump());
    CHECK_THAT(LoadError(d.path()), Catch::Contains("format version 99"));
  }
  SECTION("a manifest that is not JSON") {
    write(manifest, "{\"format\": \"augur-che");
    const std::string e = LoadError(d.path());
    CHECK_THAT(e, Catch::Contains(manifest));
    CHECK_THAT(e, Catch::Contains("not valid JSON"));
  }
  SECTION("no checkpoint at all") {
    TempDir empty("ckpt-empty");
    CHECK_THAT(LoadError(empty.path()), Catch::Contains("LATEST"));
  }
}

RunConfig ZipfConfig(uint32_t nodes, uint32_t epochs, const std::string& policy) {
  RunConfig c;
  c.nodes = nodes;
  c.workers = 2;
  c.epochs = epochs;
  c.verify = true;
  c.policy = policy;
  c.pattern = "mixed";
  c.seed = 5;
  c.zipf.keys = 3000;
  c.zipf.dim = 4;
  c.zipf.batch_size = 16;
  c.zipf.batches_per_epoch = 12;
  return c;
}

Result<RunResult> RunZipf(RunConfig c) {
  REQUIRE(c.Validate().ok());
  Result<std::unique_ptr<Job>> job = MakeJob(c);
  if (!job.ok()) return job.status();
  return RunOnLoopback(c, **job);
}

TEST_CASE("a checkpointed zipf run resumes onto other node counts and verifies",
          "[checkpoint][loopback]") {
  const std::string policy = GENERATE(as<std::string>{}, "classic", "adaptive", "replicate-all");
  INFO("policy " << policy);
  TempDir d("ckpt-resume-" + policy);
  RunConfig first = ZipfConfig(3, 2, policy);
  first.checkpoint_dir = d.path();
  Result<RunResult> r = RunZipf(first);
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r->verified == true);
  REQUIRE(std::filesystem::exists(d.File("ckpt-1/manifest.json")));
  REQUIRE(std::filesystem::exists(d.File("ckpt-2/manifest.json")));

  for (uint32_t nodes : {1u, 2u, 4u}) {
    INFO("resumed on " << nodes << " nodes");
    RunConfig again = ZipfConfig(nodes, 4, policy);
    again.resume_dir = d.File("ckpt-1");  // continue after epoch 1 of the 3-node run
    Result<RunResult> resumed = RunZipf(again);
    INFO(resumed.status().message());
    REQUIRE(resumed.ok());
    CHECK(resumed->verified == true);
    CHECK(resumed->epoch_seconds.size() == 3);
    CHECK(resumed->verify_detail == "");
  }
  // Resuming but skipping the restore would lose epoch 1's pushes: the
  // invariant must notice (the check can fail).
  RunConfig fresh = ZipfConfig(2, 4, policy);
  REQUIRE(fresh.Validate().ok());
  fresh.zipf.start_epoch = 1;
  fresh.zipf.prior_nodes = 3;
  fresh.zipf.prior_workers = 2;
  Result<std::unique_ptr<Job>> job = MakeJob(fresh);
  REQUIRE(job.ok());
  Result<RunResult> lost = RunOnLoopback(fresh, **job);
  REQUIRE(lost.ok());
  CHECK(lost->verified == false);
}

TEST_CASE("resume refuses a checkpoint of another configuration", "[checkpoint][loopback]") {
  TempDir d("ckpt-mismatch");
  RunConfig first = ZipfConfig(2, 1, "classic");
  first.checkpoint_dir = d.path();
  REQUIRE(RunZipf(first).ok());
  RunConfig other = ZipfConfig(2, 3, "classic");
  other.zipf.keys = 4000;
  other.resume_dir = d.path();
  Result<RunResult> r = RunZipf(other);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("keys = 3000, this run 4000"));
  RunConfig done = ZipfConfig(2, 1, "classic");
  done.resume_dir = d.path();
  Result<RunResult> r2 = RunZipf(done);
  REQUIRE_FALSE(r2.ok());
  CHECK_THAT(r2.status().message(), Catch::Contains("--epochs (the total) must be larger"));
}

}  // namespace
}  // namespace augur

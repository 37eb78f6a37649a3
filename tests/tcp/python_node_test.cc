// PythonNode (experiments/python, the C++ side of augur.join) without Python:
// options parsed as `augur run` parses them, two nodes joined in one process
// over real loopback sockets, worker threads, exact sums, Finish writing each
// rank's result. (Also run under ThreadSanitizer, with the watchdog thread.)
#include "experiments/python/python_node.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "tests/tcp/free_port.h"

namespace augur {
namespace {

std::string SecretFile() {
  const std::string path =
      (std::filesystem::temp_directory_path() / "augur-python-node-test-secret").string();
  std::filesystem::remove(path);
  std::ofstream(path) << std::string(32, 'k');
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  return path;
}

JoinRequest Request(uint32_t rank, uint16_t port, const std::string& secret) {
  JoinRequest r;
  r.dim = 2;
  r.layout = {{100, 109, 5}};
  r.options = {{"workers", "2"},
               {"policy", "adaptive"},
               {"rank", std::to_string(rank)},
               {"nodes", "2"},
               {"coordinator", "127.0.0.1:" + std::to_string(port)},
               {"secret_file", secret},
               {"cluster_id", "python-node-test"}};
  r.workload = "unit";
  return r;
}

TEST_CASE("join options are augur run's, with its messages", "[tcp][python]") {
  const std::string secret = SecretFile();
  JoinRequest r = Request(0, 1, secret);
  REQUIRE(ParseJoinOptions(r).ok());
  r.options[1] = {"policy", "lapse"};
  Result<JoinOptions> bad = ParseJoinOptions(r);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("--policy: unknown policy 'lapse'") != std::string::npos);
  r = Request(0, 1, secret);
  r.options.push_back({"epochs", "2"});
  bad = ParseJoinOptions(r);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("unknown option 'epochs'") != std::string::npos);
  r = Request(0, 1, secret);
  r.layout = {{5, 3, 2}};
  CHECK_FALSE(ParseJoinOptions(r).ok());
  r = Request(0, 1, secret);
  r.optimizer = "adam";
  CHECK_FALSE(ParseJoinOptions(r).ok());
}

TEST_CASE("two PythonNodes keep the sum invariant and write their results", "[tcp][python]") {
  const std::string secret = SecretFile();
  tcp::ListeningSocket listener = tcp::FreePort();
  const uint16_t port = listener.port();
  const int listen_fd = listener.Release();  // rank 0 takes it over
  const std::string out =
      (std::filesystem::temp_directory_path() / "augur-python-node-test-out").string();
  std::filesystem::remove_all(out);
  std::vector<std::unique_ptr<PythonNode>> nodes(2);
  {
    std::vector<std::thread> joiners;
    for (uint32_t r = 0; r < 2; ++r) {
      joiners.emplace_back([&, r] {
        JoinRequest q = Request(r, port, secret);
        q.options.push_back({"out", out});
        Result<JoinOptions> o = ParseJoinOptions(q);
        if (!o.ok()) return;
        if (r == 0) o->tcp.coordinator_listen_fd = listen_fd;
        Result<std::unique_ptr<PythonNode>> n = PythonNode::Join(std::move(*o));
        if (n.ok()) nodes[r] = std::move(*n);
      });
    }
    for (auto& t : joiners) t.join();
  }
  REQUIRE(nodes[0] != nullptr);
  REQUIRE(nodes[1] != nullptr);
  const std::vector<Key> keys = {1, 7, 100, 109};  // two of length 2, two of length 5
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t i = 0; i < 2; ++i) {
      threads.emplace_back([&, r, i] {
        Worker& w = nodes[r]->worker(i);
        const std::vector<float> ones(w.TotalLength(keys), 1.f);
        for (int round = 0; round < 10; ++round) {
          w.Intent(keys, w.clock(), w.clock() + 1);
          w.Wait(w.Push(keys, ones));
          w.AdvanceClock();
        }
        for (int pass = 0; pass < 2; ++pass) {
          w.Barrier();
          w.WaitSync();
        }
        w.Barrier();
        std::vector<float> got(ones.size());
        w.Wait(w.Pull(keys, got));
        for (float v : got) wrong[r * 2 + i] += v != 40.f;
        w.Barrier();
      });
    }
  }
  for (auto& t : threads) t.join();
  CHECK(wrong == std::vector<int>(4, 0));
  std::vector<Result<nlohmann::json>> results;
  {
    std::vector<std::thread> finishers;
    results.resize(2, Status::Error("not run"));
    for (uint32_t r = 0; r < 2; ++r)
      finishers.emplace_back([&, r] {
        results[r] = nodes[r]->Finish(PythonReport{{}, 40, true, {}});
      });
    for (auto& t : finishers) t.join();
  }
  for (uint32_t r = 0; r < 2; ++r) {
    REQUIRE(results[r].ok());
    CHECK((*results[r])["rank"] == r);
    CHECK((*results[r])["workload"] == "unit");
    CHECK((*results[r])["samples"] == 40);
    CHECK(std::filesystem::exists(out + "/rank-" + std::to_string(r) + "/result.json"));
  }
  CHECK_FALSE(nodes[0]->Finish(PythonReport{}).ok());  // once only
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace augur

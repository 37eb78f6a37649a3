// augur-bench: micro-benchmarks of the core's hot path, each next to its
// physical reference measured in the same run.
//
//   BM_LocalPull/<dim>, BM_LocalPush/<dim>: Worker::Pull/Push of 256 random
//     local keys (one node, so every key takes the hot path: striped lock +
//     hash lookup + row copy, no message).
//   BM_Memcpy/<dim>: memcpy of the same 256 rows from random positions of a
//     plain array of the same size: the limit for moving those bytes.
//   BM_RowAdd/<dim>: row[i] += update[i] for 256 random rows of the same plain
//     array (the store's own row kernel, core/store/row_kernels.h, so both
//     sides run the same instructions), what a Hogwild program's update
//     does in place: a push reads
//     and dirties its rows (their write-back is DRAM traffic a gather
//     does not have), so this is the push's physical reference.
//   BM_Encode/BM_Decode: the codec on a 256-key pull response of dim 100.
// All report bytes_per_second (value bytes moved).
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

#include "backends/loopback/loopback_cluster.h"
#include "core/base/rng.h"
#include "core/codec/codec.h"
#include "core/store/row_kernels.h"

namespace augur {
namespace {

constexpr size_t kBatch = 256;

uint64_t KeysFor(uint32_t dim) { return dim >= 1000 ? 8192 : 65536; }

std::vector<std::vector<Key>> RandomBatches(uint64_t keys, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<Key>> batches(64, std::vector<Key>(kBatch));
  for (auto& b : batches)
    for (Key& k : b) k = Mix64(rng.Below(keys));
  return batches;
}

// 64 batches of kBatch random row indices below `rows`, for the plain-array references.
std::vector<std::vector<uint64_t>> RandomRows(uint64_t rows, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<uint64_t>> batches(64, std::vector<uint64_t>(kBatch));
  for (auto& b : batches)
    for (uint64_t& r : b) r = rng.Below(rows);
  return batches;
}

struct OneNode {
  explicit OneNode(uint32_t dim) {
    LoopbackOptions o;
    o.nodes = 1;
    o.node.workers = 1;
    o.node.layout = ValueLayout(dim);
    cluster = std::make_unique<LoopbackCluster>(o);
    // Touch every key once so the benchmark measures steady-state access.
    std::vector<float> zeros(dim * kBatch, 0.0f);
    const uint64_t keys = KeysFor(dim);
    std::vector<Key> batch;
    for (uint64_t i = 0; i < keys; ++i) {
      batch.push_back(Mix64(i));
      if (batch.size() == kBatch || i + 1 == keys) {
        zeros.resize(batch.size() * dim);
        worker().Set(batch, zeros);
        batch.clear();
      }
    }
  }
  Worker& worker() { return cluster->node(0).worker(0); }
  std::unique_ptr<LoopbackCluster> cluster;
};

void BM_LocalPull(benchmark::State& state) {
  const uint32_t dim = static_cast<uint32_t>(state.range(0));
  OneNode node(dim);
  auto batches = RandomBatches(KeysFor(dim), 1);
  std::vector<float> out(kBatch * dim);
  size_t i = 0;
  for (auto _ : state) {
    Ticket t = node.worker().Pull(batches[i++ % batches.size()], out);
    benchmark::DoNotOptimize(t);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kBatch * dim * sizeof(float));
}

void BM_LocalPush(benchmark::State& state) {
  const uint32_t dim = static_cast<uint32_t>(state.range(0));
  OneNode node(dim);
  auto batches = RandomBatches(KeysFor(dim), 2);
  std::vector<float> updates(kBatch * dim, 0.5f);
  size_t i = 0;
  for (auto _ : state) {
    Ticket t = node.worker().Push(batches[i++ % batches.size()], updates);
    benchmark::DoNotOptimize(t);
  }
  state.SetBytesProcessed(state.iterations() * kBatch * dim * sizeof(float));
}

void BM_Memcpy(benchmark::State& state) {
  const uint32_t dim = static_cast<uint32_t>(state.range(0));
  const uint64_t keys = KeysFor(dim);
  std::vector<float> source(keys * dim, 1.0f);
  const std::vector<std::vector<uint64_t>> rows = RandomRows(keys, 1);
  std::vector<float> out(kBatch * dim);
  size_t i = 0;
  for (auto _ : state) {
    const auto& b = rows[i++ % rows.size()];
    for (size_t j = 0; j < kBatch; ++j)
      std::memcpy(out.data() + j * dim, source.data() + b[j] * dim, dim * sizeof(float));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBatch * dim * sizeof(float));
}

void BM_RowAdd(benchmark::State& state) {
  const uint32_t dim = static_cast<uint32_t>(state.range(0));
  const uint64_t keys = KeysFor(dim);
  std::vector<float> table(keys * dim, 1.0f);
  const std::vector<std::vector<uint64_t>> rows = RandomRows(keys, 2);
  const std::vector<float> updates(kBatch * dim, 0.5f);
  size_t i = 0;
  for (auto _ : state) {
    const auto& b = rows[i++ % rows.size()];
    for (size_t j = 0; j < kBatch; ++j) {
      AddRow(table.data() + b[j] * dim, updates.data() + j * dim, dim);
    }
    benchmark::DoNotOptimize(table.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBatch * dim * sizeof(float));
}

Message PullResponse() {
  Message m;
  m.type = MessageType::kPullResponse;
  for (size_t i = 0; i < kBatch; ++i) {
    m.keys.push_back(Mix64(i));
    m.slots.push_back(static_cast<uint32_t>(i * 100));
  }
  m.values.assign(kBatch * 100, 0.25f);
  return m;
}

void BM_Encode(benchmark::State& state) {
  const Message m = PullResponse();
  for (auto _ : state) {
    std::vector<uint8_t> bytes = Encode(m);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(state.iterations() * EncodedSize(m));
}

void BM_Decode(benchmark::State& state) {
  const std::vector<uint8_t> bytes = Encode(PullResponse());
  for (auto _ : state) {
    Result<Message> m = Decode(bytes);
    benchmark::DoNotOptimize(m.ok());
  }
  state.SetBytesProcessed(state.iterations() * bytes.size());
}

BENCHMARK(BM_LocalPull)->Arg(16)->Arg(100)->Arg(1000);
BENCHMARK(BM_LocalPush)->Arg(16)->Arg(100)->Arg(1000);
BENCHMARK(BM_Memcpy)->Arg(16)->Arg(100)->Arg(1000);
BENCHMARK(BM_RowAdd)->Arg(16)->Arg(100)->Arg(1000);
BENCHMARK(BM_Encode);
BENCHMARK(BM_Decode);

}  // namespace
}  // namespace augur

BENCHMARK_MAIN();

// BatchRows with AdaGrad: a key that several examples of a batch share is
// pushed with the sum of its examples' gradients and the sum of their squares,
// so the store's accumulator grows as the examples' own steps would grow it
// (the single-node baselines' per-example steps), on one node (direct access)
// and on two (the copy path, the main copy remote); GradAt sums are pushed as
// one update each. A sample's keys join the batch's pull, each once, unless
// the sampler read their values ahead.
#include "experiments/jobs/batch_rows.h"

#include <catch2/catch.hpp>
#include <vector>

#include "backends/loopback/loopback_cluster.h"
#include "core/policy/policy.h"

namespace augur {
namespace {

LoopbackCluster AdaGradCluster(uint32_t nodes, SampleScheme scheme = SampleScheme::kNaive) {
  LoopbackOptions o;
  o.nodes = nodes;
  o.node.sampling.scheme = scheme;
  o.node.workers = 1;
  o.node.layout = ValueLayout(2);
  o.node.policy = *MakePolicy("classic", {});
  o.node.optimizer.kind = OptimizerKind::kAdaGrad;
  o.node.optimizer.learning_rate = 0.1f;
  o.node.optimizer.initial_accumulator = 1.0f;
  return LoopbackCluster(o);
}

// The accumulator of `key` at its main copy after node 0's worker added two
// examples' gradients of it (through AddGradient, or summed through GradAt).
std::vector<float> AccumulatorAfterBatch(uint32_t nodes, bool per_example) {
  LoopbackCluster cluster = AdaGradCluster(nodes);
  Key key = 0;
  while (cluster.node(0).HomeOf(key) != nodes - 1) ++key;  // remote from node 0 on two nodes
  const float g[2][2] = {{0.5f, -1.0f}, {1.5f, -1.0f}};
  REQUIRE(cluster
              .Run([&](Worker& w) {
                if (w.node_id() == 0) {
                  BatchRows rows(2);
                  rows.Clear();
                  const uint32_t slot = rows.Add(key);
                  REQUIRE(rows.Add(key) == slot);  // the second example's occurrence
                  rows.Pull(w, /*keep_original=*/false);
                  for (const auto& e : g) {
                    if (per_example) {
                      rows.AddGradient(slot, e);
                    } else {
                      for (int d = 0; d < 2; ++d) rows.GradAt(slot)[d] += e[d];
                    }
                  }
                  rows.PushGradients(w);
                  rows.Finish(w);
                }
                w.Barrier();
              })
              .ok());
  std::vector<float> row(4);
  REQUIRE(cluster.node(nodes - 1).store().ReadRow(key, row.data()));
  return {row[2], row[3]};
}

TEST_CASE("BatchRows pushes an AdaGrad row's summed squares beside its summed gradient",
          "[batch_rows]") {
  for (uint32_t nodes : {1u, 2u}) {
    INFO(nodes << " node(s)");
    const std::vector<float> acc = AccumulatorAfterBatch(nodes, /*per_example=*/true);
    CHECK(acc[0] == Approx(1.0f + 0.25f + 2.25f));  // 1 + 0.5^2 + 1.5^2, not 1 + 2^2
    CHECK(acc[1] == Approx(1.0f + 1.0f + 1.0f));    // 1 + 1 + 1, not 1 + 4
    const std::vector<float> summed = AccumulatorAfterBatch(nodes, /*per_example=*/false);
    CHECK(summed[0] == Approx(1.0f + 4.0f));  // the sum pushed as one update
    CHECK(summed[1] == Approx(1.0f + 4.0f));
  }
}

TEST_CASE("BatchRows pushes nothing for a row of the batch that got no gradient", "[batch_rows]") {
  // Two batches of the same buffer on the copy path: the second gives key b
  // no gradient, so b's push must carry zeros, not what the first batch's
  // gradient of b left in the buffer.
  LoopbackCluster cluster = AdaGradCluster(2);
  Key a = 0;
  while (cluster.node(0).HomeOf(a) != 1) ++a;
  Key b = a + 1;
  while (cluster.node(0).HomeOf(b) != 1) ++b;
  const float g[2] = {0.5f, -1.0f};
  REQUIRE(cluster
              .Run([&](Worker& w) {
                if (w.node_id() == 0) {
                  BatchRows rows(2);
                  for (int batch = 0; batch < 2; ++batch) {
                    rows.Clear();
                    const uint32_t sa = rows.Add(a);
                    const uint32_t sb = rows.Add(b);
                    rows.Pull(w, /*keep_original=*/false);
                    rows.AddGradient(sa, g);
                    if (batch == 0) rows.AddGradient(sb, g);
                    rows.PushGradients(w);
                  }
                  rows.Finish(w);
                }
                w.Barrier();
              })
              .ok());
  std::vector<float> ra(4), rb(4);
  REQUIRE(cluster.node(1).store().ReadRow(a, ra.data()));
  REQUIRE(cluster.node(1).store().ReadRow(b, rb.data()));
  CHECK(ra[2] == Approx(1.0f + 2 * 0.25f));  // a: one gradient per batch
  CHECK(rb[2] == Approx(1.0f + 0.25f));      // b: the first batch's only
  CHECK(rb[3] == Approx(1.0f + 1.0f));
}

TEST_CASE("BatchRows gives each sampled key the slot of its row, shared with an added key",
          "[batch_rows]") {
  for (uint32_t nodes : {1u, 2u}) {  // direct access, then the copy path
    LoopbackCluster cluster = AdaGradCluster(nodes);
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  if (w.node_id() == 0) {
                    BatchRows rows(2);
                    rows.Clear();
                    const uint32_t s3 = rows.Add(3);
                    const uint32_t s5 = rows.Add(5);
                    const std::vector<Key> sample = {7, 5, 7, 9};
                    rows.Pull(w, false, [&](std::vector<Key>* keys, std::vector<float>* values) {
                      *keys = sample;
                      if (values != nullptr) {  // the copy path: values by key
                        values->clear();
                        for (Key k : sample) values->insert(values->end(), {float(k), -float(k)});
                      }
                    });
                    const std::vector<uint32_t>& slots = rows.sampled_slots();
                    REQUIRE(slots.size() == sample.size());
                    CHECK(slots[1] == s5);
                    CHECK(slots[0] == slots[2]);
                    CHECK(slots[0] != s3);
                    CHECK(slots[0] != s5);
                    CHECK(slots[3] != slots[0]);
                    for (size_t j = 0; j < sample.size(); ++j) {
                      CHECK(rows.keys()[slots[j]] == sample[j]);
                      CHECK(rows.RowAt(slots[j]) == rows.Row(sample[j]));
                    }
                    rows.Finish(w);
                  }
                  w.Barrier();
                })
                .ok());
  }
}

TEST_CASE("BatchRows pulls a sample's keys with the batch, each once, unless read ahead",
          "[batch_rows]") {
  for (SampleScheme scheme : {SampleScheme::kNaive, SampleScheme::kPrefetch}) {
    const bool ahead = scheme == SampleScheme::kPrefetch;
    INFO("scheme " << SampleSchemeName(scheme));
    LoopbackCluster cluster = AdaGradCluster(2, scheme);
    REQUIRE(cluster
                .Run([&](Worker& w) {
                  if (w.node_id() == 0) {
                    CHECK(w.SampleReadsValuesAhead() == ahead);
                    const std::vector<Key> stored = {3, 5, 7, 9};
                    const std::vector<float> values = {30, 31, 50, 51, 70, 71, 90, 91};
                    REQUIRE(w.Wait(w.Set(stored, values)).ok());
                    const uint64_t before = w.local_accesses() + w.remote_accesses();
                    BatchRows rows(2);
                    rows.Clear();
                    rows.Add(3);
                    rows.Add(5);
                    const std::vector<Key> sample = {7, 5, 7, 9, 7};
                    bool got_values = false;
                    rows.Pull(w, false, [&](std::vector<Key>* keys, std::vector<float>* out) {
                      *keys = sample;
                      got_values = out != nullptr;
                      if (out == nullptr) return;
                      out->clear();  // values read ahead: here, the key negated
                      for (Key k : sample) out->insert(out->end(), {-float(k), -float(k)});
                    });
                    CHECK(got_values == ahead);
                    REQUIRE(rows.keys().size() == 4);
                    CHECK(rows.Row(3)[0] == 30);
                    CHECK(rows.Row(5)[1] == 51);  // pulled ordinarily either way
                    CHECK(rows.Row(7)[0] == (ahead ? -7 : 70));
                    CHECK(rows.Row(9)[1] == (ahead ? -9 : 91));
                    // Without read-ahead the pull fetched each distinct key once.
                    if (!ahead) CHECK(w.local_accesses() + w.remote_accesses() - before == 4);
                    rows.Finish(w);
                  }
                  w.Barrier();
                })
                .ok());
  }
}

}  // namespace
}  // namespace augur

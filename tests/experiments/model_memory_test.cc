// config/model_memory: the model's memory estimated from the flags or the
// loaded layout, and refused when this machine (a given size here) cannot
// hold what one process of the run keeps. Unit label.
#include "experiments/config/model_memory.h"

#include <catch2/catch.hpp>

namespace augur {
namespace {

constexpr double kGB = 1e9;

RunConfig Config(const std::string& backend, const std::string& workload, uint32_t nodes) {
  RunConfig c;
  c.backend = backend;
  c.workload = workload;
  c.nodes = nodes;
  REQUIRE(c.Validate().ok());
  return c;
}

TEST_CASE("the flags size zipf and mf's generated matrix, the data the others", "[model_memory]") {
  RunConfig zipf = Config("single", "zipf", 1);
  zipf.zipf.keys = 1000;
  zipf.zipf.dim = 16;
  const std::optional<ModelSize> z = ModelSizeFromFlags(zipf);
  REQUIRE(z.has_value());
  CHECK(z->rows == 1000);
  CHECK(z->floats == 16000);
  CHECK(z->state_rows == 0);
  CHECK(ModelBytes(*z) == 64000);
  CHECK(z->sized_by == "--keys 1000, --dim 16");

  RunConfig mf = Config("single", "mf", 1);  // 10000 x 2000, rank 32, 500000 ratings
  const std::optional<ModelSize> m = ModelSizeFromFlags(mf);
  REQUIRE(m.has_value());
  CHECK(m->rows == 12000);
  CHECK(ModelBytes(*m) == 12000.0 * 32 * 4 + 500000.0 * 12);  // rows and the ratings
  CHECK(m->sized_by == "--dim 32, --mf-rows 10000, --mf-cols 2000, --mf-nnz 500000");
  mf.data_dir = "data/ml";
  CHECK_FALSE(ModelSizeFromFlags(mf).has_value());
  CHECK_FALSE(ModelSizeFromFlags(Config("single", "kge", 1)).has_value());
  CHECK_FALSE(ModelSizeFromFlags(Config("single", "wv", 1)).has_value());
}

TEST_CASE("a loaded layout counts its ranges and the optimizer's state", "[model_memory]") {
  // kge-like: 1000 entities and 10 relations of 64 floats, AdaGrad.
  Result<ValueLayout> layout =
      ValueLayout::Create(64, {{0, 1000, 64}, {Key{1} << 40, (Key{1} << 40) + 10, 64}});
  REQUIRE(layout.ok());
  OptimizerConfig adagrad;
  adagrad.kind = OptimizerKind::kAdaGrad;
  const ModelSize m = ModelSizeOf(*layout, adagrad, "--dim 32 on the rows of d");
  CHECK(m.rows == 1010);
  CHECK(m.floats == 1010 * 64);
  CHECK(ModelBytes(m) == 1010.0 * 64 * 4 * 2);  // values and accumulators
  OptimizerConfig sgd;
  sgd.kind = OptimizerKind::kSgd;
  CHECK(ModelBytes(ModelSizeOf(*layout, sgd, "")) == 1010.0 * 64 * 4);
}

TEST_CASE("a model larger than the machine is one line naming the flags and both sizes",
          "[model_memory]") {
  // 1e9 rows of 16 floats: 64 GB.
  RunConfig c = Config("single", "zipf", 1);
  c.zipf.keys = 1000000000;
  const ModelSize m = *ModelSizeFromFlags(c);
  CHECK(CheckModelMemory(c, m, 100 * kGB).ok());
  CHECK(CheckModelMemory(c, m, 0).ok());  // unknown: never refused
  CHECK(CheckModelMemory(c, m, 32 * kGB).message() ==
        "the model needs at least 64 GB of memory (1,000,000,000 rows, 16,000,000,000 floats of "
        "4 bytes; --keys 1000000000, --dim 16), more than this machine's 32 GB: make the model "
        "smaller");
  // Every simulated node lives in this process: the whole model.
  const RunConfig sim = [&] {
    RunConfig s = c;
    s.backend = "sim";
    s.nodes = 8;
    return s;
  }();
  CHECK_THAT(CheckModelMemory(sim, m, 32 * kGB).message(),
             Catch::StartsWith("the model (all 8 nodes in this process) needs at least 64 GB"));
  // One TCP process holds its node's share; launch --local holds all ranks' here.
  RunConfig tcp = sim;
  tcp.backend = "tcp";
  CHECK(CheckModelMemory(tcp, m, 32 * kGB).ok());  // 8 GB
  CHECK_THAT(CheckModelMemory(tcp, m, 4 * kGB).message(),
             Catch::StartsWith("one node's share (1/8) of the model needs at least 8 GB"));
  CHECK_THAT(CheckModelMemory(tcp, m, 32 * kGB, 8).message(),
             Catch::StartsWith("the 8 local ranks' shares of the model need at least 64 GB"));
  // AdaGrad doubles it; generated ratings add theirs.
  ModelSize with_state = m;
  with_state.state_rows = 1;
  with_state.data_bytes = 2 * kGB;
  CHECK_THAT(CheckModelMemory(c, with_state, 32 * kGB).message(),
             Catch::Contains("needs at least 130 GB") &&
                 Catch::Contains("x2 with its optimizer state, and 2 GB of generated ratings"));
}

TEST_CASE("sizes beyond 2^64 floats are estimated, not wrapped", "[model_memory]") {
  RunConfig c = Config("single", "zipf", 1);
  c.zipf.keys = ~uint64_t{0};
  c.zipf.dim = 1u << 16;
  const ModelSize m = *ModelSizeFromFlags(c);
  CHECK(ModelBytes(m) > 1e24);
  CHECK_THAT(CheckModelMemory(c, m, 32 * kGB).message(),
             Catch::Contains("1.84e+19 rows, 1.21e+24 floats"));
}

}  // namespace
}  // namespace augur

// ChunkPool: the store's arenas' memory, carved from 2 MiB blocks; RowArena
// on a pool. Unit label.
#include "core/store/chunk_pool.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "core/base/huge_pages.h"
#include "core/store/row_arena.h"

namespace augur {
namespace {

bool Aligned64(const float* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }

TEST_CASE("a chunk pool hands out aligned, disjoint chunks from 2 MiB blocks", "[store]") {
  ChunkPool pool;
  CHECK(pool.reserved_bytes() == 0);
  std::vector<std::pair<uintptr_t, uintptr_t>> spans;  // [begin, end) in bytes
  const auto take = [&](size_t floats) {
    float* p = pool.Allocate(floats);
    REQUIRE(Aligned64(p));
    std::fill_n(p, floats, 1.0f);  // writable, all of it (ASan checks the bounds)
    const uintptr_t b = reinterpret_cast<uintptr_t>(p);
    spans.emplace_back(b, b + floats * sizeof(float));
  };
  take(3);                                            // rounded up to a line
  take(1024);                                         // 4 KiB
  CHECK(pool.reserved_bytes() == kHugePageBytes);     // both from the first block
  for (int i = 0; i < 300; ++i) take(1024 + 16 * i);  // about 3.6 MiB in all
  CHECK(pool.reserved_bytes() > kHugePageBytes);      // later blocks
  CHECK(pool.reserved_bytes() % kHugePageBytes == 0);
  const size_t before = pool.reserved_bytes();
  take(size_t{3} << 20);  // 12 MiB: a block of its own, rounded to huge pages
  CHECK(pool.reserved_bytes() == before + (size_t{12} << 20));
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) CHECK(spans[i - 1].second <= spans[i].first);
}

TEST_CASE("arenas sharing a pool from two threads get disjoint rows", "[store]") {
  ChunkPool pool;
  RowArena a, b;
  a.SetPool(&pool);
  b.SetPool(&pool);
  std::vector<float*> rows_a, rows_b;
  constexpr uint32_t kRows = 20000, kFloats = 100;
  const auto fill = [](RowArena& arena, std::vector<float*>& rows, float tag) {
    for (uint32_t i = 0; i < kRows; ++i) {
      float* r = arena.At(arena.Allocate(kFloats));
      std::fill_n(r, kFloats, tag);
      rows.push_back(r);
    }
  };
  std::thread t([&] { fill(a, rows_a, 1.0f); });
  fill(b, rows_b, 2.0f);
  t.join();
  // Nothing one arena wrote landed in the other's rows.
  for (float* r : rows_a) REQUIRE(std::all_of(r, r + kFloats, [](float x) { return x == 1.0f; }));
  for (float* r : rows_b) REQUIRE(std::all_of(r, r + kFloats, [](float x) { return x == 2.0f; }));
  // 2 x 20,000 rows of 112 floats (padded to lines): about 17 MiB.
  CHECK(pool.reserved_bytes() >= size_t{2} * kRows * 112 * sizeof(float));
}

TEST_CASE("huge-page advice covers only whole 2 MiB extents and never fails", "[store]") {
  std::vector<float> v;
  AssignOnHugePages(&v, size_t{3} << 20, 0.5f);
  CHECK(v.capacity() >= size_t{3} << 20);
  CHECK(v[(size_t{3} << 20) - 1] == 0.5f);
  std::vector<float> small;
  AssignOnHugePages(&small, 10, 1.0f);  // no whole extent inside: nothing advised
  CHECK(small.size() == 10);
}

}  // namespace
}  // namespace augur

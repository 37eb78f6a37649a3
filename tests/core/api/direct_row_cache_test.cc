// DirectRowCache: keys of the layout's ranges are found by index, others (and
// ranges too large for a table) through the hash map; Clear forgets both.
#include "core/api/direct_row_cache.h"

#include <catch2/catch.hpp>

namespace augur {
namespace {

ValueLayout TwoRanges() {
  Result<ValueLayout> l =
      ValueLayout::Create(4, {{10, 20, 4}, {100, 100 + DirectRowCache::kMaxDenseKeys + 1, 4}});
  REQUIRE(l.ok());
  return *l;
}

TEST_CASE("DirectRowCache finds what was inserted, in and out of the ranges",
          "[direct_row_cache]") {
  DirectRowCache cache(TwoRanges());
  float rows[5][4] = {};
  const Key keys[5] = {10, 19, 5, 150, Key{1} << 40};  // dense ends, default, large range, far
  for (int i = 0; i < 5; ++i) REQUIRE(cache.Find(keys[i]) == nullptr);
  for (int i = 0; i < 5; ++i) cache.Insert(keys[i], rows[i]);
  for (int i = 0; i < 5; ++i) CHECK(cache.Find(keys[i]) == rows[i]);
  CHECK(cache.Find(11) == nullptr);  // a neighbour in the same dense table
  CHECK(cache.Find(20) == nullptr);  // one past the range: not in its table
  CHECK(cache.Find(151) == nullptr);
  cache.Insert(10, rows[2]);  // a moved row replaces the old pointer
  CHECK(cache.Find(10) == rows[2]);
  cache.Clear();
  for (int i = 0; i < 5; ++i) CHECK(cache.Find(keys[i]) == nullptr);
  cache.Insert(19, rows[1]);
  CHECK(cache.Find(19) == rows[1]);
}

}  // namespace
}  // namespace augur

// RowHints: a bounded direct-mapped table of prefetch hints. Unit label.
#include "experiments/jobs/row_hints.h"

#include <catch2/catch.hpp>
#include <vector>

namespace augur {
namespace {

TEST_CASE("row hints remember the last row per slot, in a bounded table", "[jobs]") {
  SECTION("a small id space gets a slot per id") {
    RowHints h(1000);
    CHECK(h.slots() == 1024);
    std::vector<float> rows(3 * 8);
    CHECK(h.Get(7) == nullptr);
    h.Set(7, &rows[0]);
    h.Set(999, &rows[8]);
    CHECK(h.Get(7) == &rows[0]);
    CHECK(h.Get(999) == &rows[8]);
    h.Set(7, &rows[16]);  // the row moved: the newer place wins
    CHECK(h.Get(7) == &rows[16]);
    h.Prefetch(7, 8 * sizeof(float));
    h.Prefetch(8, 8 * sizeof(float));  // no hint: nothing to load
  }
  SECTION("a large id space shares slots, and its table stays bounded") {
    RowHints h(uint64_t{1} << 30);
    CHECK(h.slots() == RowHints::kMaxSlots);
    float a = 0, b = 0;
    h.Set(5, &a);
    h.Set(5 + RowHints::kMaxSlots, &b);  // the same slot: overwrites
    CHECK(h.Get(5) == &b);
    CHECK(h.Get(6) == nullptr);
  }
  SECTION("a stale hint is only loaded, never dereferenced") {
    RowHints h(16);
    {
      std::vector<float> gone(64);
      h.Set(3, gone.data());
    }
    h.Prefetch(3, 64 * sizeof(float));  // freed memory: a prefetch does not fault
    CHECK(h.Get(3) != nullptr);
  }
}

}  // namespace
}  // namespace augur

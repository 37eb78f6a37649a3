#include "core/protocol/intent_table.h"

#include <catch2/catch.hpp>

#include "core/protocol/action_timing.h"

namespace augur {
namespace {

TEST_CASE("intent signals activate inside the horizon and expire at their end", "[intent]") {
  IntentTable t(2);
  const std::vector<Key> a{1, 2}, b{2, 3};
  t.Add(0, a, 5, 7, /*clock=*/0);
  t.Add(1, b, 1, 3, /*clock=*/0);
  std::vector<Key> wanted, unwanted;
  std::vector<Clock> leads;
  t.Advance(0, 0, 4, &wanted, &unwanted, &leads);  // start 5 > horizon 4: pending
  CHECK(wanted.empty());
  t.Advance(0, 1, 5, &wanted, &unwanted, &leads);
  CHECK(wanted == std::vector<Key>{1, 2});
  CHECK(leads == std::vector<Clock>{4});
  t.Advance(1, 0, 2, &wanted, &unwanted, &leads);
  CHECK(wanted == std::vector<Key>{1, 2, 3});  // key 2 was already wanted by worker 0
  CHECK(t.ActiveCount(2) == 2);
  t.Advance(1, 3, 5, &wanted, &unwanted, &leads);  // worker 1's signal ended
  CHECK(unwanted == std::vector<Key>{3});
  CHECK(t.ActiveCount(2) == 1);
  t.Advance(0, 7, 9, &wanted, &unwanted, &leads);
  CHECK(unwanted == std::vector<Key>{3, 1, 2});
  CHECK(t.active_keys() == 0);
}

TEST_CASE("only signals announced before their start count as ahead", "[intent]") {
  IntentTable t(1);
  const std::vector<Key> now{4, 5}, later{5, 6};
  t.Add(0, now, 3, 4, /*clock=*/3);    // for the current clock: no notice
  t.Add(0, later, 4, 6, /*clock=*/3);  // one clock ahead
  std::vector<Key> wanted, unwanted;
  std::vector<Clock> leads;
  t.Advance(0, 3, 10, &wanted, &unwanted, &leads);
  CHECK(t.ActiveCount(4) == 1);
  CHECK(t.AheadCount(4) == 0);
  CHECK(t.ActiveCount(5) == 2);
  CHECK(t.AheadCount(5) == 1);
  CHECK(t.AheadCount(6) == 1);
  t.Advance(0, 4, 10, &wanted, &unwanted, &leads);  // the same-clock signal ended
  CHECK(t.ActiveCount(4) == 0);
  CHECK(t.ActiveCount(5) == 1);
  CHECK(t.AheadCount(5) == 1);
  t.Advance(0, 6, 10, &wanted, &unwanted, &leads);
  CHECK(t.active_keys() == 0);
  CHECK(t.AheadCount(5) == 0);
}

TEST_CASE("action timing acts at once until a sync round measured the worker", "[intent]") {
  ActionTiming timing(2, false);
  CHECK(timing.Window(0) > 1000000);  // no estimate yet
  timing.OnSyncRound(0, 10);
  CHECK(timing.Window(0) == 21);      // 1 + 2 * 10 clocks, no variance yet
  CHECK(timing.Window(1) > 1000000);  // the other worker is still unmeasured
}

TEST_CASE("action timing follows the clocks seen per sync round", "[intent]") {
  ActionTiming timing(1, false);
  Clock clock = 0;
  for (int round = 0; round < 20; ++round) {
    clock += 10;
    timing.OnSyncRound(0, clock);
  }
  CHECK(timing.Window(0) == 21);  // steady: two rounds of 10 clocks, plus one
  for (int round = 0; round < 20; ++round) {
    clock += 40;
    timing.OnSyncRound(0, clock);
  }
  CHECK(timing.Window(0) >= 80);  // widened with the faster clocks
  CHECK(timing.Window(0) < 100);
  CHECK(ActionTiming(1, true).Window(0) > 1000000);  // act immediately
}

}  // namespace
}  // namespace augur

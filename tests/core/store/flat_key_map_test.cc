#include "core/store/flat_key_map.h"

#include <catch2/catch.hpp>
#include <unordered_map>

#include "core/base/rng.h"

namespace augur {
namespace {

TEST_CASE("FlatKeyMap matches std::unordered_map under random insert/assign/erase churn",
          "[store]") {
  const uint64_t seed = GENERATE(1, 2, 3);
  INFO("seed " << seed);
  Rng rng(seed);
  FlatKeyMap<uint64_t> map;
  std::unordered_map<Key, uint64_t> ref;
  for (int i = 0; i < 50000; ++i) {
    // Small key universe (so erases hit) plus extreme values (no sentinel keys).
    Key k = rng.Below(3) == 0 ? ~Key{0} - rng.Below(4) : rng.Below(2000);
    const uint64_t op = rng.Below(4);
    if (op == 0) {
      REQUIRE(map.Erase(k) == (ref.erase(k) == 1));
    } else if (op == 1) {
      map.Assign(k, i);  // insert or overwrite
      ref[k] = i;
      REQUIRE(*map.Find(k) == static_cast<uint64_t>(i));
    } else {
      auto [v, inserted] = map.Insert(k, i);
      auto [it, ref_inserted] = ref.emplace(k, i);
      REQUIRE(inserted == ref_inserted);
      REQUIRE(*v == it->second);
    }
  }
  REQUIRE(map.size() == ref.size());
  for (const auto& [k, v] : ref) {
    REQUIRE(map.Find(k) != nullptr);
    REQUIRE(*map.Find(k) == v);
  }
  size_t seen = 0;
  map.ForEach([&](Key k, uint64_t& v) {
    ++seen;
    REQUIRE(ref.at(k) == v);
  });
  REQUIRE(seen == ref.size());
}

TEST_CASE("FlatKeyMap grows only to insert a new key, never to overwrite one", "[store]") {
  // The largest size the first capacity takes: the key count before a growth.
  Key k = 0;
  {
    FlatKeyMap<uint64_t> probe;
    const size_t first = probe.capacity();
    while (probe.capacity() == first) probe.Insert(k++, 0);
    --k;  // the key that grew it
  }
  FlatKeyMap<uint64_t> map;
  for (Key i = 0; i < k; ++i) map.Insert(i, 0);
  const size_t capacity = map.capacity();
  uint64_t* first = map.Find(0);
  map.Assign(0, 7);  // present: overwritten in place
  auto [v, inserted] = map.Insert(1, 8);
  CHECK_FALSE(inserted);
  CHECK(map.capacity() == capacity);
  CHECK(map.Find(0) == first);
  CHECK(*first == 7);
  CHECK(*v == 0);    // Insert kept the stored value
  map.Insert(k, 9);  // new: grows
  CHECK(map.capacity() == capacity * 2);
  for (Key i = 0; i <= k; ++i) CHECK(map.Find(i) != nullptr);
  CHECK(*map.Find(k) == 9);
}

}  // namespace
}  // namespace augur

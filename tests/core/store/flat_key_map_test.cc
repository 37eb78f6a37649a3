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

}  // namespace
}  // namespace augur

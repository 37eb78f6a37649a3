#include "core/policy/policy.h"

#include <catch2/catch.hpp>

namespace augur {
namespace {

std::shared_ptr<const Policy> Make(const std::string& name, std::vector<Key> hot = {}) {
  Result<std::shared_ptr<const Policy>> p = MakePolicy(name, std::move(hot));
  REQUIRE(p.ok());
  return *p;
}

TEST_CASE("every policy name is accepted and unknown names are refused", "[policy]") {
  for (const std::string& name : PolicyNames()) CHECK(std::string(Make(name)->name()) == name);
  CHECK_THAT(MakePolicy("lapse").status().message(), Catch::Contains("unknown policy 'lapse'"));
}

TEST_CASE("classic and replicate-all do not act on intent", "[policy]") {
  CHECK_FALSE(Make("classic")->LocalizesOnIntent());
  CHECK_FALSE(Make("classic")->IsStaticReplica(7));
  CHECK_FALSE(Make("replicate-all")->LocalizesOnIntent());
  CHECK(Make("replicate-all")->IsStaticReplica(7));
}

TEST_CASE("relocate always moves the main copy, even when others want the key", "[policy]") {
  auto p = Make("relocate");
  CHECK(p->Place(KeyView{1, true, 3}) == Placement::kRelocate);
  CHECK_FALSE(p->Upgrade(KeyView{1, false, 0}));
}

TEST_CASE("nups replicates exactly its hot keys and relocates the tail", "[policy]") {
  auto p = Make("nups", {10, 20});
  CHECK(p->IsStaticReplica(10));
  CHECK_FALSE(p->IsStaticReplica(11));
  CHECK(p->Place(KeyView{20, false, 0}) == Placement::kReplicate);
  CHECK(p->Place(KeyView{21, true, 2}) == Placement::kRelocate);
}

TEST_CASE("adaptive relocates uncontended keys, replicates contended ones, upgrades", "[policy]") {
  auto p = Make("adaptive");
  CHECK(p->Place(KeyView{1, false, 0}) == Placement::kRelocate);
  CHECK(p->Place(KeyView{1, true, 0}) == Placement::kReplicate);   // the owner wants it too
  CHECK(p->Place(KeyView{1, false, 1}) == Placement::kReplicate);  // another node holds a replica
  CHECK(p->Upgrade(KeyView{1, false, 0}));                         // competing intent ended
  CHECK_FALSE(p->Upgrade(KeyView{1, true, 0}));
  CHECK_FALSE(p->Upgrade(KeyView{1, false, 2}));
}

}  // namespace
}  // namespace augur

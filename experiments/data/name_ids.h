// NameIds: dense ids 0, 1, 2, ... for names (entities, relations, users,
// items), in first-seen order, as the importers assign them. The names are
// appended to a caller-owned list, so names[id] is the name of id.
// Not thread-safe: one per import.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace augur {

class NameIds {
 public:
  static constexpr uint32_t kMaxIds = 1u << 30;

  explicit NameIds(std::vector<std::string>* names) : names_(names) {}
  // The name's id, new or not; false when the id space is full.
  bool Add(std::string_view name, uint32_t* id) {
    auto [it, inserted] =
        ids_.try_emplace(std::string(name), static_cast<uint32_t>(names_->size()));
    if (inserted) {
      if (names_->size() >= kMaxIds) return false;
      names_->push_back(it->first);
    }
    *id = it->second;
    return true;
  }
  // The id of a name seen before; false if it was not.
  bool Find(std::string_view name, uint32_t* id) const {
    const auto it = ids_.find(std::string(name));
    if (it == ids_.end()) return false;
    *id = it->second;
    return true;
  }

 private:
  std::vector<std::string>* names_;
  std::unordered_map<std::string, uint32_t> ids_;
};

}  // namespace augur

#include "experiments/report/json_value.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace augur {

JsonValue::JsonValue() : j_(std::make_unique<nlohmann::json>()) {}
JsonValue::JsonValue(nlohmann::json j) : j_(std::make_unique<nlohmann::json>(std::move(j))) {}
JsonValue JsonValue::Object() { return JsonValue(nlohmann::json::object()); }
JsonValue::JsonValue(const JsonValue& o) : j_(std::make_unique<nlohmann::json>(*o.j_)) {}
JsonValue::JsonValue(JsonValue&& o) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue& o) {
  if (this != &o) j_ = std::make_unique<nlohmann::json>(*o.j_);
  return *this;
}
JsonValue& JsonValue::operator=(JsonValue&& o) noexcept = default;
JsonValue& JsonValue::operator=(nlohmann::json j) {
  if (j_ == nullptr) j_ = std::make_unique<nlohmann::json>();
  *j_ = std::move(j);
  return *this;
}
JsonValue::~JsonValue() = default;

}  // namespace augur

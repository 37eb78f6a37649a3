// JsonValue: an nlohmann::json held by value, for headers that include only
// <nlohmann/json_fwd.hpp>.
//
// A struct in a header cannot hold an nlohmann::json member without the full
// (heavy) json.hpp; it holds a JsonValue instead, which keeps the json behind
// a pointer and copies it deeply, so the struct stays a plain copyable value.
// Code that uses the json includes <nlohmann/json.hpp> and reaches it with
// `*v`, `v->value(...)` or `v["key"]`; a JsonValue converts to a json& where
// one is expected. Default: null, like nlohmann::json; JsonValue::Object()
// is an empty object. A moved-from JsonValue may only be assigned or
// destroyed. Threading: a plain value (no sharing between copies).
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>

namespace augur {

class JsonValue {
 public:
  JsonValue();                    // null
  JsonValue(nlohmann::json j);    // NOLINT: implicit by design
  static JsonValue Object();      // {}
  JsonValue(const JsonValue& o);  // deep copy
  JsonValue(JsonValue&& o) noexcept;
  JsonValue& operator=(const JsonValue& o);
  JsonValue& operator=(JsonValue&& o) noexcept;
  JsonValue& operator=(nlohmann::json j);
  ~JsonValue();

  nlohmann::json& operator*() { return *j_; }
  const nlohmann::json& operator*() const { return *j_; }
  nlohmann::json* operator->() { return j_.get(); }
  const nlohmann::json* operator->() const { return j_.get(); }
  operator nlohmann::json&() { return *j_; }              // NOLINT: implicit by design
  operator const nlohmann::json&() const { return *j_; }  // NOLINT

  // v["key"], as on the json (the caller includes json.hpp).
  template <typename Key>
  nlohmann::json& operator[](const Key& key) {
    return (*j_)[key];
  }
  template <typename Key>
  const nlohmann::json& operator[](const Key& key) const {
    return (*j_)[key];
  }

 private:
  std::unique_ptr<nlohmann::json> j_;
};

}  // namespace augur

// Status and Result<T>: expected failures as values.
//
// A Status is either OK or carries one human-readable line that says what is
// wrong and where ("frame from rank 3: length 9000000 exceeds max 8388608").
// Broken invariants are not Statuses: they use AUGUR_CHECK (check.h).
// Thread-safety: plain values; copy freely.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace augur {

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  const std::string& message() const {
    static const std::string kOk = "ok";
    return message_ ? *message_ : kOk;
  }
  // Prefixes the message with context ("while reading FILE: ...").
  Status WithContext(const std::string& context) const {
    if (ok()) return *this;
    return Status(context + ": " + *message_);
  }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  T& operator*() { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace augur

#include "core/codec/codec.h"

#include <catch2/catch.hpp>
#include <cstring>

#include "core/base/rng.h"

namespace augur {
namespace {

Message RandomMessage(Rng& rng) {
  Message m;
  m.type =
      static_cast<MessageType>(1 + rng.Below(static_cast<uint64_t>(MessageType::kLastMessage)));
  m.src = static_cast<NodeId>(rng.Below(1000));
  m.origin = static_cast<NodeId>(rng.Below(1000));
  m.op_id = rng.Next();
  m.aux = static_cast<uint32_t>(rng.Next());
  m.keys.resize(rng.Below(20));
  for (Key& k : m.keys) k = rng.Next();
  m.slots.resize(rng.Below(20));
  for (uint32_t& s : m.slots) s = static_cast<uint32_t>(rng.Next());
  m.values.resize(rng.Below(50));
  for (float& v : m.values) v = static_cast<float>(rng.Uniform() * 100 - 50);
  return m;
}

TEST_CASE("codec round-trips random messages and predicts their size", "[codec]") {
  Rng rng(42);
  for (int i = 0; i < 500; ++i) {
    const Message m = RandomMessage(rng);
    const std::vector<uint8_t> bytes = Encode(m);
    REQUIRE(bytes.size() == EncodedSize(m));
    Result<Message> back = Decode(bytes);
    REQUIRE(back.ok());
    REQUIRE(*back == m);
  }
}

TEST_CASE("DecodeView gives every field but the values, and the values' bytes in place",
          "[codec]") {
  Rng rng(43);
  for (int i = 0; i < 200; ++i) {
    const Message m = RandomMessage(rng);
    const std::vector<uint8_t> bytes = Encode(m);
    Result<FrameView> view = DecodeView(bytes);
    REQUIRE(view.ok());
    REQUIRE(view->message.values.empty());
    REQUIRE(view->value_count() == m.values.size());
    std::vector<float> values(view->value_count());
    if (!values.empty())
      std::memcpy(values.data(), view->value_bytes.data(), view->value_bytes.size());
    REQUIRE(values == m.values);
    REQUIRE(view->value_bytes.data() + view->value_bytes.size() == bytes.data() + bytes.size());
    Message fields = m;
    fields.values.clear();
    REQUIRE(view->message == fields);
  }
}

TEST_CASE("codec rejects every truncation of a valid frame", "[codec]") {
  Rng rng(7);
  Message m = RandomMessage(rng);
  m.keys = {1, 2, 3};
  m.values = {1.f, 2.f};
  const std::vector<uint8_t> bytes = Encode(m);
  for (size_t len = 0; len < bytes.size(); ++len) {
    Result<Message> r = Decode(std::span<const uint8_t>(bytes.data(), len));
    REQUIRE_FALSE(r.ok());
    REQUIRE_FALSE(DecodeView(std::span<const uint8_t>(bytes.data(), len)).ok());
  }
}

TEST_CASE("codec rejects bad magic, version, type, length and trailing bytes", "[codec]") {
  Message m;
  m.type = MessageType::kPushRequest;
  m.keys = {5};
  m.values = {1.f};
  const std::vector<uint8_t> good = Encode(m);
  REQUIRE(Decode(good).ok());

  auto corrupt = [&](size_t at, uint8_t value) {
    std::vector<uint8_t> b = good;
    b[at] = value;
    return Decode(b);
  };
  CHECK_THAT(corrupt(0, 0x00).status().message(), Catch::Contains("magic"));
  CHECK_THAT(corrupt(2, 99).status().message(), Catch::Contains("version 99"));
  CHECK_THAT(corrupt(3, 0).status().message(), Catch::Contains("unknown message type"));
  CHECK_THAT(corrupt(3, 200).status().message(), Catch::Contains("unknown message type"));
  CHECK_THAT(corrupt(11, 0x7F).status().message(), Catch::Contains("exceeds max"));

  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  CHECK_FALSE(Decode(trailing).ok());

  // An array count that claims more elements than the frame holds.
  std::vector<uint8_t> big_count = good;
  big_count[kHeaderBytes + 16] = 0xFF;  // low byte of n_keys
  big_count[kHeaderBytes + 19] = 0x7F;
  CHECK_THAT(Decode(big_count).status().message(), Catch::Contains("truncated"));
}

std::vector<uint8_t> BundleOf(const std::vector<Message>& messages, NodeId src) {
  std::vector<const Message*> ptrs;
  for (const Message& m : messages) ptrs.push_back(&m);
  std::vector<uint8_t> out;
  EncodeBundle(src, ptrs, &out);
  return out;
}

TEST_CASE("a bundle carries whole frames in order and is not a message", "[codec]") {
  Rng rng(11);
  for (int i = 0; i < 100; ++i) {
    std::vector<Message> messages(1 + rng.Below(6));
    for (Message& m : messages) {
      m = RandomMessage(rng);
      m.src = 7;
    }
    size_t bytes = 0;
    for (const Message& m : messages) bytes += EncodedSize(m);
    const std::vector<uint8_t> bundle = BundleOf(messages, 7);
    REQUIRE(bundle.size() == EncodedBundleSize(bytes));
    Result<std::vector<std::span<const uint8_t>>> parts = SplitBundle(bundle);
    REQUIRE(parts.ok());
    REQUIRE(parts->size() == messages.size());
    for (size_t j = 0; j < messages.size(); ++j) {
      Result<Message> back = Decode((*parts)[j]);
      REQUIRE(back.ok());
      REQUIRE(*back == messages[j]);
    }
    CHECK_THAT(Decode(bundle).status().message(), Catch::Contains("not a message"));
  }
  Message single = RandomMessage(rng);
  CHECK_THAT(SplitBundle(Encode(single)).status().message(), Catch::Contains("not a bundle"));
}

TEST_CASE("SplitBundle refuses truncation, nesting, a foreign sender and emptiness", "[codec]") {
  Rng rng(12);
  std::vector<Message> messages(3);
  for (Message& m : messages) {
    m = RandomMessage(rng);
    m.src = 2;
  }
  const std::vector<uint8_t> good = BundleOf(messages, 2);
  REQUIRE(SplitBundle(good).ok());
  for (size_t len = 0; len < good.size(); ++len)
    REQUIRE_FALSE(SplitBundle(std::span<const uint8_t>(good.data(), len)).ok());

  // The bundle's length covers a truncated last frame.
  std::vector<uint8_t> short_frame = good;
  short_frame.pop_back();
  const uint32_t body = static_cast<uint32_t>(short_frame.size() - kHeaderBytes);
  std::memcpy(short_frame.data() + 8, &body, sizeof(body));
  CHECK_THAT(SplitBundle(short_frame).status().message(),
             Catch::Contains("bundled frame 3") && Catch::Contains("left in the bundle"));

  messages[1].src = 5;
  CHECK_THAT(SplitBundle(BundleOf(messages, 2)).status().message(),
             Catch::Contains("bundled frame 2: sender 5, the bundle's is 2"));

  // A bundle inside a bundle: the inner one's bytes appended as a frame.
  std::vector<uint8_t> nested = BundleOf({messages[0]}, 2);
  const std::vector<uint8_t> inner = BundleOf({messages[2]}, 2);
  nested.insert(nested.end(), inner.begin(), inner.end());
  const uint32_t nested_body = static_cast<uint32_t>(nested.size() - kHeaderBytes);
  std::memcpy(nested.data() + 8, &nested_body, sizeof(nested_body));
  CHECK_THAT(SplitBundle(nested).status().message(), Catch::Contains("a bundle inside a bundle"));

  CHECK_THAT(SplitBundle(BundleOf({}, 2)).status().message(), Catch::Contains("empty bundle"));
}

TEST_CASE("codec survives random garbage without reading out of bounds", "[codec]") {
  Rng rng(99);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> junk(rng.Below(80));
    for (uint8_t& b : junk) b = static_cast<uint8_t>(rng.Next());
    if (i % 2 == 0 && junk.size() >= 4) {  // make half of them look like frames
      junk[0] = junk[1] = 0xA6;
      junk[2] = kWireVersion;
    }
    if (Decode(junk).ok()) ++accepted;
    if (i % 4 == 0 && junk.size() >= 4) junk[3] = static_cast<uint8_t>(MessageType::kBundle);
    (void)SplitBundle(junk);
  }
  CHECK(accepted < 20000);  // the sanitizer build is what proves "no out-of-bounds read"
}

}  // namespace
}  // namespace augur

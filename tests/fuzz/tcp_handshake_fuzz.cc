// Fuzz target: the TCP handshake (backends/tcp handshake.h) as both sides see
// it. The input is a sequence of transport frames from a hostile peer; the
// acceptor checks a Hello then a Proof, the dialer checks a Challenge, and the
// bootstrap messages (Register, Roster) are decoded as the coordinator and a
// rank would. A forged peer must be refused with an error, never crash, and
// never pass a proof check without the secret.
#include <cstddef>
#include <cstdint>
#include <span>

#include "backends/tcp/control_messages.h"
#include "backends/tcp/frame_reader.h"
#include "backends/tcp/handshake.h"
#include "core/base/check.h"

namespace {

augur::tcp::HandshakeConfig Config() {
  augur::tcp::HandshakeConfig c;
  c.cluster_id = "fuzz-cluster";
  c.secret.assign(32, 0x5A);
  c.rank = 0;
  c.nodes = 4;
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace augur::tcp;
  const HandshakeConfig config = Config();
  const Nonce my_nonce{};  // fixed: the fuzzer cannot know the secret anyway
  FrameReader reader(1u << 16);
  const std::span<uint8_t> space = reader.Prepare(size);
  std::copy(data, data + size, space.begin());
  reader.Commit(size);
  bool have_hello = false;
  Hello hello;
  for (;;) {
    Frame f;
    augur::Result<bool> got = reader.Next(&f);
    if (!got.ok() || !*got) break;
    if (f.kind == FrameKind::kHello) {
      augur::Result<Hello> h = DecodeHello(f.payload);
      if (!h.ok() || !CheckHello(config, *h).ok()) continue;
      hello = *h;
      have_hello = true;
      (void)EncodeChallenge(MakeChallenge(config, hello, my_nonce));
    } else if (f.kind == FrameKind::kProof && have_hello) {
      augur::Result<Proof> p = DecodeProof(f.payload);
      if (!p.ok()) continue;
      const bool accepted = CheckProof(config, hello, my_nonce, *p).ok();
      HandshakeConfig dialer = config;  // the honest dialer of this Hello
      dialer.rank = hello.rank;
      const Proof real = MakeProof(dialer, hello.nonce, MakeChallenge(config, hello, my_nonce));
      AUGUR_CHECK(accepted == (real.mac == p->mac), "proof check disagrees with the real proof");
    } else if (f.kind == FrameKind::kChallenge) {
      augur::Result<Challenge> ch = DecodeChallenge(f.payload);
      if (!ch.ok()) continue;
      (void)CheckChallenge(config, my_nonce, *ch, -1);
    } else if (f.kind == FrameKind::kRegister) {
      (void)DecodeRegister(f.payload);
    } else if (f.kind == FrameKind::kRoster) {
      augur::Result<Roster> r = DecodeRoster(f.payload, config.nodes);
      if (r.ok()) AUGUR_CHECK(r->ranks.size() <= config.nodes, "roster larger than the limit");
    }
  }
  return 0;
}

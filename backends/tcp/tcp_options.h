// TcpOptions: how one node process joins a TCP cluster (filled from `augur run` flags).
//
// Plain value; validated by the command that fills it. The secret is held
// here after loading and is never printed or written to a result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/tcp/frame_protection.h"
#include "backends/tcp/transport_frame.h"

namespace augur::tcp {

// The start of the line a rank prints on stderr as it begins to join its
// cluster (TcpTransport::Start: "augur rank 1: joining cluster 'ID' of 4
// nodes (coordinator HOST:PORT)"). `augur launch` watches its ranks' output
// for it: a rank that never printed it never called augur.join.
inline std::string JoiningMarker(uint32_t rank) {
  return "augur rank " + std::to_string(rank) + ": joining cluster ";
}

struct TcpOptions {
  uint32_t rank = 0;
  uint32_t nodes = 1;
  // Rank 0 listens here; every other rank dials it first.
  std::string coordinator_host = "127.0.0.1";
  uint16_t coordinator_port = 29500;
  // Rank 0 only: a socket already bound to coordinator_port and listening
  // (ListenOnFreePort, backends/tcp/free_port.h), which the transport takes over
  // instead of binding the port itself, so no other process can take the port
  // between the pick and the bind. -1: bind coordinator_port.
  int coordinator_listen_fd = -1;
  // Address to listen on; empty: the coordinator host on rank 0, else
  // 127.0.0.1 when the coordinator is on loopback, else 0.0.0.0.
  std::string bind_host;
  std::string cluster_id = "augur";
  std::vector<uint8_t> secret;  // from --secret-file; never logged
  // A peer silent for this long (or not joined by then) stops the cluster.
  double peer_timeout_seconds = 30;
  // Extra delay applied to every received frame before delivery (0: off).
  double emulate_latency_seconds = 0;
  // Largest core frame sent or accepted; a larger one to send is an error
  // naming its message type and size.
  uint32_t max_frame_bytes = kDefaultMaxFrameBytes;
  // Protection of every frame after the handshake (frame_protection.h).
  WireSecurity wire_security = kDefaultWireSecurity;
  // An accepted connection that has not authenticated by then is dropped.
  double handshake_timeout_seconds = 10;
  // Accepted connections still in their handshake beyond this are refused at once.
  uint32_t max_unauthenticated = 64;
  // The I/O thread's time slice under the kernel's fair scheduler
  // (thread_slice.h; Linux 6.12 or later, ignored before): short, so that a
  // peer's message preempts a computing worker instead of waiting for its
  // slice to end. 0: the kernel's default.
  double io_slice_seconds = 100e-6;
};

}  // namespace augur::tcp

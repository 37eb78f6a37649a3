#include "experiments/cli/tcp_flags.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "backends/tcp/handshake.h"
#include "backends/tcp/thread_slice.h"
#include "core/config/units.h"

namespace augur {

namespace {

// Reads a launcher's rank variable; nullopt if unset.
Result<std::optional<uint32_t>> LauncherVar(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::optional<uint32_t>();
  char* end = nullptr;
  const unsigned long x = std::strtoul(v, &end, 10);
  if (*end != '\0' || x > 1u << 20) {
    return Status::Error(std::string("environment variable ") + name + "='" + v +
                         "' is not a rank or size");
  }
  return std::optional<uint32_t>(static_cast<uint32_t>(x));
}

// The value srun's or mpirun's variable gives, and which of them (*from);
// both set and different is an error (two launchers' environments mixed).
Result<std::optional<uint32_t>> FromLauncher(const char* slurm, const char* ompi,
                                             const char** from) {
  Result<std::optional<uint32_t>> s = LauncherVar(slurm);
  Result<std::optional<uint32_t>> o = LauncherVar(ompi);
  if (!s.ok()) return s;
  if (!o.ok()) return o;
  if (s->has_value() && o->has_value() && **s != **o)
    return Status::Error(std::string(slurm) + "=" + std::to_string(**s) + " and " + ompi + "=" +
                         std::to_string(**o) +
                         " disagree: the environment mixes srun's and mpirun's; give --rank "
                         "and --nodes");
  *from = s->has_value() ? slurm : o->has_value() ? ompi : nullptr;
  return s->has_value() ? s : o;
}

// That fd is a listening TCP socket on `port`, for rank 0.
Status CheckCoordinatorFd(int fd, uint32_t rank, uint16_t port) {
  if (rank != 0) return Status::Error("only rank 0 takes over the coordinator socket");
  int listening = 0;
  socklen_t len = sizeof(listening);
  if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening)
    return Status::Error("not a listening socket");
  sockaddr_storage a{};
  len = sizeof(a);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    return Status::Error("not a bound socket");
  const uint16_t bound = a.ss_family == AF_INET6
                             ? ntohs(reinterpret_cast<const sockaddr_in6*>(&a)->sin6_port)
                             : ntohs(reinterpret_cast<const sockaddr_in*>(&a)->sin_port);
  if (bound != port)
    return Status::Error("is bound to port " + std::to_string(bound) + ", --coordinator names " +
                         std::to_string(port));
  return Status::Ok();
}

}  // namespace

void AddTcpFlags(CLI::App& app, TcpFlagText* t) {
  app.add_option("--rank", t->rank,
                 "This node's rank (default: SLURM_PROCID or OMPI_COMM_WORLD_RANK)");
  app.add_option("--coordinator", t->coordinator,
                 "HOST:PORT where rank 0 listens and every other rank dials first")
      ->capture_default_str();
  app.add_option("--bind", t->bind,
                 "Address to listen on (default: the coordinator host on rank 0; 127.0.0.1 when "
                 "the coordinator is on loopback, else 0.0.0.0)");
  app.add_option("--secret-file", t->secret_file,
                 "File holding the cluster's shared secret (>= 16 bytes; augur launch makes one)");
  app.add_option("--cluster-id", t->cluster_id, "Name every node of one cluster must share")
      ->capture_default_str();
  app.add_option("--peer-timeout", t->peer_timeout,
                 "Stop with an error when a peer is silent (or has not joined) this long")
      ->capture_default_str();
  app.add_option("--emulate-latency", t->emulate_latency,
                 "Delay every received frame by this much before delivery (e.g. 100us; 0 = off)")
      ->capture_default_str();
  app.add_option("--max-frame-bytes", t->max_frame_bytes,
                 "Largest frame sent to or accepted from a peer; a larger one to send stops the "
                 "node with an error naming it, a larger one received drops the connection")
      ->capture_default_str();
  app.add_option("--wire-security", t->wire_security,
                 "Protection of every frame after the handshake: encrypt (AES-256-GCM), auth "
                 "(authenticated, readable: GMAC) or none (benchmarks only; the result says so)")
      ->capture_default_str();
  app.add_option("--coordinator-fd", t->coordinator_fd,
                 "Rank 0: a listening socket already bound to --coordinator's port, inherited "
                 "as this descriptor (augur launch --local passes one, so the port is never "
                 "free between its pick and its use)");
  app.add_option("--handshake-timeout", t->handshake_timeout,
                 "Drop an incoming connection that has not authenticated within this long")
      ->capture_default_str();
  app.add_option("--io-slice", t->io_slice,
                 "The I/O thread's time slice under the kernel's fair scheduler (Linux 6.12 or "
                 "later; ignored before): a short one lets a peer's message preempt a computing "
                 "worker at once. 0 = the kernel's default, else 100us to 100ms")
      ->capture_default_str();
}

Status ParseHostPort(const std::string& text, std::string* host, uint16_t* port) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return Status::Error("'" + text + "' is not HOST:PORT");
  }
  std::string h = text.substr(0, colon);
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  char* end = nullptr;
  const unsigned long p = std::strtoul(text.c_str() + colon + 1, &end, 10);
  if (*end != '\0' || p > 65535) return Status::Error("'" + text + "' has no valid port");
  *host = h;
  *port = static_cast<uint16_t>(p);
  return Status::Ok();
}

Status FinishTcpOptions(const TcpFlagText& t, std::optional<uint32_t> nodes_flag,
                        tcp::TcpOptions* o) {
  std::optional<uint32_t> rank = t.rank;
  const char* rank_from = nullptr;
  const char* nodes_from = nullptr;
  if (!rank) {
    Result<std::optional<uint32_t>> r =
        FromLauncher("SLURM_PROCID", "OMPI_COMM_WORLD_RANK", &rank_from);
    if (!r.ok()) return r.status();
    rank = *r;
  }
  std::optional<uint32_t> nodes = nodes_flag;
  if (!nodes) {
    Result<std::optional<uint32_t>> n =
        FromLauncher("SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", &nodes_from);
    if (!n.ok()) return n.status();
    nodes = *n;
  }
  if (rank_from != nullptr && nodes_from != nullptr &&
      (rank_from[0] == 'S') != (nodes_from[0] == 'S'))
    return Status::Error(std::string("the rank comes from ") + rank_from + " but the size from " +
                         nodes_from +
                         ": the environment mixes srun's and mpirun's; give --rank "
                         "and --nodes");
  if (!rank) return Status::Error("--rank is required (or start under srun/mpirun)");
  if (!nodes) return Status::Error("--nodes is required (or start under srun/mpirun)");
  if (*nodes == 0) return Status::Error("--nodes must be at least 1");
  if (*rank >= *nodes) {
    return Status::Error("--rank " + std::to_string(*rank) + " is not below --nodes " +
                         std::to_string(*nodes));
  }
  o->rank = *rank;
  o->nodes = *nodes;
  if (Status s = ParseHostPort(t.coordinator, &o->coordinator_host, &o->coordinator_port);
      !s.ok()) {
    return s.WithContext("--coordinator");
  }
  if (t.coordinator_fd.has_value()) {
    if (Status s = CheckCoordinatorFd(*t.coordinator_fd, o->rank, o->coordinator_port); !s.ok())
      return s.WithContext("--coordinator-fd " + std::to_string(*t.coordinator_fd));
    o->coordinator_listen_fd = *t.coordinator_fd;
  }
  o->bind_host = t.bind;
  if (t.cluster_id.empty() || t.cluster_id.size() > 255) {
    return Status::Error("--cluster-id must have 1 to 255 characters");
  }
  o->cluster_id = t.cluster_id;
  Result<double> timeout = ParseDuration(t.peer_timeout);
  if (!timeout.ok()) return timeout.status().WithContext("--peer-timeout");
  if (*timeout <= 0) return Status::Error("--peer-timeout must be > 0");
  o->peer_timeout_seconds = *timeout;
  Result<double> latency = ParseDuration(t.emulate_latency);
  if (!latency.ok()) return latency.status().WithContext("--emulate-latency");
  if (*latency < 0 || *latency > 10) return Status::Error("--emulate-latency must be in [0, 10s]");
  o->emulate_latency_seconds = *latency;
  if (t.max_frame_bytes < 1024) return Status::Error("--max-frame-bytes must be at least 1024");
  o->max_frame_bytes = t.max_frame_bytes;
  Result<tcp::WireSecurity> mode = tcp::ParseWireSecurity(t.wire_security);
  if (!mode.ok()) return mode.status().WithContext("--wire-security");
  o->wire_security = *mode;
  Result<double> handshake = ParseDuration(t.handshake_timeout);
  if (!handshake.ok()) return handshake.status().WithContext("--handshake-timeout");
  if (*handshake <= 0 || *handshake > 3600) {
    return Status::Error("--handshake-timeout must be in (0, 3600s]");
  }
  o->handshake_timeout_seconds = *handshake;
  Result<double> slice = ParseDuration(t.io_slice);
  if (!slice.ok()) return slice.status().WithContext("--io-slice");
  if (!tcp::ValidThreadSlice(*slice)) {
    return Status::Error("--io-slice must be 0 (the kernel's default) or in [100us, 100ms], not '" +
                         t.io_slice + "'");
  }
  o->io_slice_seconds = *slice;
  if (t.secret_file.empty()) {
    return Status::Error(
        "--secret-file is required (the cluster's shared secret; augur launch "
        "generates one)");
  }
  Result<std::vector<uint8_t>> secret = tcp::LoadSecret(t.secret_file);
  if (!secret.ok()) return secret.status().WithContext("--secret-file");
  o->secret = std::move(*secret);
  return Status::Ok();
}

nlohmann::json TcpOptionsJson(const tcp::TcpOptions& o) {
  nlohmann::json j = {
      {"rank", o.rank},
      {"coordinator", o.coordinator_host + ":" + std::to_string(o.coordinator_port)},
      {"cluster_id", o.cluster_id},
      {"peer_timeout_seconds", o.peer_timeout_seconds},
      {"emulate_latency_seconds", o.emulate_latency_seconds},
      {"max_frame_bytes", o.max_frame_bytes},
      {"wire_security", tcp::WireSecurityName(o.wire_security)},
      {"handshake_timeout_seconds", o.handshake_timeout_seconds},
      {"io_slice_seconds", o.io_slice_seconds}};
  if (o.wire_security == tcp::WireSecurity::kNone) {
    j["wire_security_warning"] =
        "UNPROTECTED: frames after the handshake were neither authenticated nor encrypted "
        "(--wire-security none, for benchmarks only)";
  }
  return j;
}

}  // namespace augur

// Flags of the TCP backend (`augur run`), and how rank/size come from a launcher.
//
// --rank/--nodes win; otherwise Slurm (SLURM_PROCID, SLURM_NTASKS) or Open MPI
// (OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE) supply them, so `srun augur run`
// and `mpirun augur run` work. These launcher variables are the only
// environment Augur reads.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "backends/tcp/tcp_options.h"
#include "core/base/status.h"

namespace augur {

struct TcpFlagText {
  std::optional<uint32_t> rank;
  std::string coordinator = "127.0.0.1:29500";
  std::string bind;
  std::string secret_file;
  std::string cluster_id = "augur";
  std::string peer_timeout = "30s";
  std::string emulate_latency = "0s";
  uint32_t max_frame_bytes = tcp::kDefaultMaxFrameBytes;
  std::string wire_security = tcp::WireSecurityName(tcp::kDefaultWireSecurity);
  std::string handshake_timeout = "10s";
  std::string io_slice = "100us";
  std::optional<int> coordinator_fd;
};

void AddTcpFlags(CLI::App& app, TcpFlagText* text);
// Fills options from the flags (rank and nodes from the launcher when absent;
// nodes_flag is --nodes if given). Loads the secret. Errors name the flag.
Status FinishTcpOptions(const TcpFlagText& text, std::optional<uint32_t> nodes_flag,
                        tcp::TcpOptions* options);
// The options as recorded in result.json (never the secret). With
// --wire-security none it says that the frames were unprotected.
nlohmann::json TcpOptionsJson(const tcp::TcpOptions& o);
// Splits "HOST:PORT" (also "[v6]:PORT").
Status ParseHostPort(const std::string& text, std::string* host, uint16_t* port);

}  // namespace augur

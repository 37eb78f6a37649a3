// Checkpoint format: the bytes of a consistent checkpoint, without file I/O.
//
// A checkpoint is a directory (see checkpoint_files.h) holding one row file per
// node of the run that wrote it and a manifest:
//   node-N.rows    magic "AUGCKPT1" | version u32 | node u32 | rows u64, then
//                  per row: key u64 | floats u32 | float32[floats]   (little-endian)
//                  A row is the key's value followed by its optimizer state.
//   manifest.json  format name and version, node and worker counts, the epoch
//                  and stream clock it was taken after, the run's time then, the workload's
//                  fingerprint (what must match to resume), and per file: name,
//                  node, bytes, rows, smallest and largest key, FNV-1a 64 checksum.
// Every decoder checks every length against the bytes present and returns an
// error naming the problem; callers prefix the file name.
// Pure functions over values; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/types.h"
#include "experiments/report/json_value.h"

namespace augur {

inline constexpr uint32_t kCheckpointVersion = 1;
inline constexpr const char* kCheckpointFormat = "augur-checkpoint";
inline constexpr const char* kManifestName = "manifest.json";

struct CheckpointRow {
  Key key = 0;
  std::vector<float> floats;  // value, then optimizer state
};

struct CheckpointFile {
  std::string name;  // "node-N.rows", relative to the checkpoint directory
  uint32_t node = 0;
  uint64_t bytes = 0;
  uint64_t rows = 0;
  Key min_key = 0;  // 0/0 when rows == 0
  Key max_key = 0;
  uint64_t fnv1a64 = 0;
};

struct CheckpointManifest {
  uint32_t version = kCheckpointVersion;
  uint32_t nodes = 0;
  uint32_t workers = 0;  // per node
  uint32_t epoch = 0;    // epochs completed before the checkpoint
  uint64_t clock = 0;    // per-worker stream clock at the checkpoint
  // The run's clock (Worker::Now: simulated or wall seconds) at the commit;
  // the simulator's recovery reports the work lost since. Optional on read.
  double taken_at_seconds = 0;
  std::string workload;
  JsonValue fingerprint = JsonValue::Object();  // must equal the resuming run's
  std::vector<CheckpointFile> files;            // one per node, in node order

  nlohmann::json ToJson() const;
  // Checks the format, version, types and that files[n] is node n's for all n < nodes.
  static Result<CheckpointManifest> FromJson(const nlohmann::json& j);
};

uint64_t Fnv1a64(std::span<const uint8_t> bytes);
std::string NodeFileName(uint32_t node);

// Encodes a node's rows; fills `file` (everything but the name is derived).
std::vector<uint8_t> EncodeNodeRows(uint32_t node, const std::vector<CheckpointRow>& rows,
                                    CheckpointFile* file);
// Decodes one node file, checking it against its manifest entry (size,
// checksum, node, row count, key range). Appends the rows to `out`.
Status DecodeNodeRows(std::span<const uint8_t> bytes, const CheckpointFile& file,
                      std::vector<CheckpointRow>* out);

}  // namespace augur

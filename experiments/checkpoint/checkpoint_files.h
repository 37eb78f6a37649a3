// Checkpoint files: writing and reading checkpoints on a (shared) file system.
//
// Layout under the --checkpoint-dir DIR:
//   DIR/ckpt-E/            the checkpoint taken after epoch E (checkpoint_format.h)
//   DIR/ckpt-E.tmp/        one being written (ignored by readers)
//   DIR/LATEST             "ckpt-E": the newest complete checkpoint
// Writing is two-phase. Every node writes its rows (node-N.rows) and their
// manifest entry (node-N.entry.json) into ckpt-E.tmp, each file to a temporary
// name, fsync'd, then renamed. Node 0, after a barrier, builds manifest.json
// from the entries, renames ckpt-E.tmp to ckpt-E and then replaces LATEST the
// same way. A crash at any point leaves LATEST naming the previous complete
// checkpoint. Nodes of a run on several machines need DIR on a shared file
// system (as for --resume onto another node count).
// Threading: plain functions; distinct nodes may call them concurrently for
// distinct files. Errors name the path and what is wrong.
#pragma once

#include <string>
#include <vector>

#include "core/base/status.h"
#include "experiments/checkpoint/checkpoint_format.h"

namespace augur {

std::string CheckpointTempDir(const std::string& dir, uint32_t epoch);

// Node 0, before any node writes: creates DIR and an empty ckpt-E.tmp.
Status PrepareCheckpoint(const std::string& dir, uint32_t epoch);
// Every node: writes its rows and manifest entry into ckpt-E.tmp.
Status WriteNodeCheckpoint(const std::string& dir, uint32_t epoch, uint32_t node,
                           const std::vector<CheckpointRow>& rows);
// Node 0, after every node wrote: adds the files' entries to `manifest`,
// writes it, publishes ckpt-E and points LATEST at it.
Status CommitCheckpoint(const std::string& dir, CheckpointManifest manifest);

struct LoadedCheckpoint {
  std::string path;  // the ckpt-E directory read
  CheckpointManifest manifest;
  std::vector<CheckpointRow> rows;  // every node's, in node order
};

// `path` is a --checkpoint-dir (its LATEST is read) or one ckpt-E directory.
// Every file is checked against the manifest (size, checksum, structure).
Result<LoadedCheckpoint> LoadCheckpoint(const std::string& path);

}  // namespace augur

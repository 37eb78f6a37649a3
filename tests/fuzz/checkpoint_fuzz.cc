// Fuzz target: checkpoint loading (experiments/checkpoint), as `--resume DIR`
// reads it. Sections: manifest.json, node-0.rows, node-1.rows. Every row file
// is also decoded against an entry derived from its own bytes (right size
// and checksum), so the structural checks behind the checksum are reached.
#include <cstddef>
#include <cstdint>
#include <span>

#include "experiments/checkpoint/checkpoint_files.h"
#include "experiments/checkpoint/checkpoint_format.h"
#include "tests/fuzz/fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const augur::fuzz::FuzzDir dir("checkpoint");
  const auto sections = augur::fuzz::SplitSections(data, size);
  dir.WriteSections({"manifest.json", "node-0.rows", "node-1.rows"}, sections);
  (void)augur::LoadCheckpoint(dir.path());
  for (size_t i = 1; i < sections.size(); ++i) {
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(sections[i].data()),
                                         sections[i].size());
    augur::CheckpointFile f;
    f.node = static_cast<uint32_t>(i - 1);
    f.bytes = bytes.size();
    f.fnv1a64 = augur::Fnv1a64(bytes);
    f.rows = bytes.size() >= 24 ? bytes[16] : 0;  // the low byte of the declared count
    f.min_key = 0;
    f.max_key = ~augur::Key{0};
    std::vector<augur::CheckpointRow> rows;
    (void)augur::DecodeNodeRows(bytes, f, &rows);
  }
  return 0;
}

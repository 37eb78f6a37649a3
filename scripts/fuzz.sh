#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, build-fuzz/) and runs each
# for SECONDS seconds (default 60) from its seed corpus in tests/fuzz/corpus/.
# Fails if any target crashes, leaks, times out or exceeds the memory limit;
# the crashing input is kept as runs/fuzz/<target>/crash-* (or leak-, oom-,
# timeout-), and reproduces with: build-fuzz/bin/fuzz_<target> FILE.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# New inputs the fuzzer finds go to runs/fuzz/<target>/corpus (not committed).
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

seconds=${1:-60}
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  log "fuzz.sh: SECONDS must be a positive integer, got '$seconds'"
  exit 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(find tests/fuzz/corpus -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi

install_deps
log "fuzz build (build-fuzz/, clang, libFuzzer + ASan + UBSan)"
AUGUR_TARGETS=augur_fuzz_all build build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DAUGUR_FUZZ=ON ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER}

# Parsers read real files: keep them in memory (a disk-backed /tmp is 10x slower).
if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi

failed=()
for t in "${targets[@]}"; do
  exe=build-fuzz/bin/fuzz_$t
  if [ ! -x "$exe" ]; then
    log "no fuzz target '$t' ($exe missing)"
    exit 2
  fi
  out=runs/fuzz/$t
  mkdir -p "$out/corpus"
  log "fuzzing $t for ${seconds}s"
  if ! UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
    "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "tests/fuzz/corpus/$t" \
    >"$out/log.txt" 2>&1; then
    log "fuzz target $t FAILED; see $out/log.txt and $out/crash-*"
    grep -E 'ERROR|runtime error|invariant|terminate|==[0-9]+==' "$out/log.txt" | head -5 >&2 || true
    failed+=("$t")
    continue
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/log.txt" | grep -o '[0-9]*$' || echo '?')
  log "  $t: $runs inputs, no crash"
done
if [ ${#failed[@]} -gt 0 ]; then
  log "fuzzing found problems in: ${failed[*]}"
  exit 1
fi
log "all ${#targets[@]} fuzz targets ran ${seconds}s each without a crash"

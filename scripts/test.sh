#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test:
#   1. release build in build/: the whole ctest suite (unit, scenario, backend and script tests);
#   2. ASan+UBSan build in build-asan/: the unit and scenario tests again;
#   3. ThreadSanitizer build in build-tcp-tsan/: the TCP backend tests (label tcp) again;
#   4. formatting check against .clang-format.
# Exits non-zero on any failure. CI (.ci/run) calls exactly this.
set -euo pipefail
AUGUR_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$AUGUR_ROOT"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

install_deps

log "release build (build/)"
build build -DCMAKE_BUILD_TYPE=Release
log "test suite"
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600

log "sanitizer build (build-asan/, address+undefined)"
build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAUGUR_SANITIZE=address,undefined
log "unit and scenario tests under ASan+UBSan"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L unit --timeout 900

log "ThreadSanitizer build (build-tcp-tsan/): the TCP backend's real threads"
# -Wno-tsan: GCC 12 refuses atomic_thread_fence under TSan, and SimGrid headers use it.
if [ ! -f build-tcp-tsan/build.ninja ]; then
  cmake -S "$AUGUR_ROOT" -B build-tcp-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAUGUR_SANITIZE=thread -DCMAKE_CXX_FLAGS=-Wno-tsan >/dev/null
fi
cmake --build build-tcp-tsan --target augur augur_tcp_tests -- -j"$(nproc)"
log "TCP tests (label tcp) under ThreadSanitizer"
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tcp-tsan --output-on-failure -j"$(nproc)" \
  -L tcp --timeout 900

log "formatting (.clang-format)"
mapfile -t sources < <(git ls-files '*.h' '*.cc')
if ! clang-format --dry-run --Werror "${sources[@]}"; then
  log "formatting differs: run clang-format -i on the files above"
  exit 1
fi
log "all tests passed"

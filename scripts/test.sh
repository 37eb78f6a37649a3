#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test:
#   1. release build in build/: the whole ctest suite (unit, scenario, backend and script tests);
#   2. ASan+UBSan build in build-asan/: the unit and scenario tests again;
#   3. a short libFuzzer run (scripts/fuzz.sh, 10 s per target; clang build in build-fuzz/);
#   4. formatting check against .clang-format.
# Warnings are errors in the release build; the sanitizer build only adds checks at run time.
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
AUGUR_TARGETS=augur_tests build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DAUGUR_SANITIZE=address,undefined -DAUGUR_WERROR=OFF
log "unit and scenario tests under ASan+UBSan"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L unit --timeout 900

# ThreadSanitizer over the TCP tests (issue 3) is not part of this script yet:
# its build was never completed on the 2-core machine, and an unverified stage
# must not decide whether CI passes. Run it by hand:
#   cmake -S . -B build-tcp-tsan -G Ninja -DAUGUR_SANITIZE=thread -DAUGUR_WERROR=OFF \
#     -DCMAKE_CXX_FLAGS=-Wno-tsan && cmake --build build-tcp-tsan --target augur augur_tcp_tests
#   TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tcp-tsan -L tcp
log "ThreadSanitizer stage: not run (see the comment in scripts/test.sh)"

log "fuzzing: every target for ${AUGUR_FUZZ_SECONDS:-10}s (scripts/fuzz.sh)"
scripts/fuzz.sh "${AUGUR_FUZZ_SECONDS:-10}"

log "formatting (.clang-format)"
mapfile -t sources < <(git ls-files '*.h' '*.cc')
if ! clang-format --dry-run --Werror "${sources[@]}"; then
  log "formatting differs: run clang-format -i on the files above"
  exit 1
fi
log "all tests passed"

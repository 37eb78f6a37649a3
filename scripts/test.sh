#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test:
#   1. release build in build/: the whole ctest suite (unit, scenario, backend and script tests);
#      then the notebooks, executed headless on a small `augur compare` (scripts/notebooks.sh),
#      and the Python module's tests (pytest, tests/python);
#   2. ASan+UBSan build in build-asan/: the unit and scenario tests again;
#   3. TSan build in build-tsan/: the TCP backend's tests again (real threads);
#   4. a short libFuzzer run (scripts/fuzz.sh, 5 s per target; clang build in build-fuzz/);
#   5. formatting check against .clang-format.
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
log "notebooks (scripts/notebooks.sh: a small compare, then nbconvert --execute of each)"
scripts/notebooks.sh build
log "Python tests (pytest: the augur module in build/python, tiny sizes)"
AUGUR_BUILD_DIR=build /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/python

log "sanitizer build (build-asan/, address+undefined)"
AUGUR_TARGETS="augur_core_tests augur_tests" build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DAUGUR_SANITIZE=address,undefined -DAUGUR_WERROR=OFF
log "unit and scenario tests under ASan+UBSan"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L unit --timeout 900

# From an empty build-tsan/ without ccache: 805 CPU-seconds of compiling
# (32m50s wall on the 2 cores under load average 6-12 from other builds, so
# about 7 minutes on an idle machine), then 75 s for the 21 tests.
log "ThreadSanitizer build (build-tsan/, augur and the TCP tests only)"
AUGUR_TARGETS="augur augur_tcp_tests" build build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DAUGUR_SANITIZE=thread -DAUGUR_WERROR=OFF -DCMAKE_CXX_FLAGS=-Wno-tsan
log "TCP tests under ThreadSanitizer (the script tests run build-tsan/bin/augur)"
# Reports go to files as well as failing the process (exit code 66): a race
# in a process whose failure a test expects (a refused intruder, a rank that
# stops after a lost peer) must still fail this stage.
tsan_logs=$(mktemp -d /tmp/augur-tsan.XXXXXX)
tsan_ok=1
TSAN_OPTIONS="halt_on_error=1 log_path=$tsan_logs/report" \
  ctest --test-dir build-tsan --output-on-failure -L tcp --timeout 900 || tsan_ok=0
if compgen -G "$tsan_logs/report*" >/dev/null; then
  cat "$tsan_logs"/report*
  log "ThreadSanitizer reported the races above"
  tsan_ok=0
fi
rm -rf "$tsan_logs"
[ "$tsan_ok" = 1 ] || exit 1

log "fuzzing: every target for ${AUGUR_FUZZ_SECONDS:-5}s (scripts/fuzz.sh)"
scripts/fuzz.sh "${AUGUR_FUZZ_SECONDS:-5}"

log "formatting (.clang-format)"
mapfile -t sources < <(git ls-files '*.h' '*.cc')
if ! clang-format --dry-run --Werror "${sources[@]}"; then
  log "formatting differs: run clang-format -i on the files above"
  exit 1
fi
log "all tests passed"

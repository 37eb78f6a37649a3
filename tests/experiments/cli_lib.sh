# Shared by tests/experiments/{data_import,run_flags}_cli_test.sh: a work
# directory removed at exit, checks and a JSON reader.
# shellcheck shell=bash
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
# jq-free JSON access: json FILE EXPR (a Python expression on `j`).
json() { /usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# expect_refused CODE PATTERN CMD...: CMD exits CODE with one stderr line matching PATTERN.
expect_refused() {
  local code=$1 pattern=$2 rc=0
  shift 2
  "$@" > "$work/out" 2> "$work/err" || rc=$?
  [ "$rc" -eq "$code" ] || { cat "$work/err" >&2; fail "$* exited $rc, expected $code"; }
  [ "$(wc -l < "$work/err")" -eq 1 ] || { cat "$work/err" >&2; fail "$*: not one stderr line"; }
  grep -qE -- "$pattern" "$work/err" || { cat "$work/err" >&2; fail "$*: stderr lacks '$pattern'"; }
}

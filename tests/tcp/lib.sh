# Shared by tests/tcp/*_test.sh: temp dirs, free ports, checks.
# shellcheck shell=bash
set -euo pipefail
AUGUR=${1:?usage: $0 PATH/TO/augur}
WORK=$(mktemp -d /tmp/augur-tcp-test.XXXXXX)
CLEANUP_CMDS=()
cleanup() {
  local c
  for c in "${CLEANUP_CMDS[@]}"; do eval "$c" || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# json_get FILE KEY: prints a top-level field of a JSON file.
json_get() {
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v))' "$1" "$2"
}
expect_json() {  # FILE KEY VALUE
  local got
  got=$(json_get "$1" "$2")
  [ "$got" = "$3" ] || fail "$1: $2 is $got, expected $3"
}
SMALL="--workload zipf --pattern mixed --keys 20000 --batches 50 --epochs 1 --verify"

# Input checks shared by scripts/*.sh: bad input is one line on stderr
# ("SCRIPT: what is wrong") and exit 2, before anything is installed, built,
# written or deleted.
# shellcheck shell=bash

usage_error() {  # usage_error MESSAGE...
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# need_value OPTION COUNT: OPTION (at $1 of the caller's loop, COUNT = its $#)
# must be followed by a value.
need_value() {
  [ "$2" -ge 2 ] || usage_error "$1 needs a value (see --help)"
}

# positive_int NAME VALUE: a decimal integer >= 1 (no sign, no exponent).
positive_int() {
  case $2 in
    '' | *[!0-9]* | 0*) usage_error "$1 must be a positive integer, not '$2'" ;;
  esac
}

# list_items NAME TEXT ARRAY [ALLOWED...]: TEXT split at commas into the
# array named ARRAY. Refused: an empty list or item ("", ",", "a,,b", "a,"),
# a repeated item and, with ALLOWED, an item not among them. Items are never
# glob-expanded.
list_items() {
  local name=$1 text=$2 array=$3 item seen=" "
  shift 3
  case $text in
    '' | ,* | *, | *,,*) usage_error "$name needs a comma-separated list without empty items, not '$text'" ;;
  esac
  IFS=, read -r -a "$array" <<<"$text"
  local -n _list_ref=$array
  for item in "${_list_ref[@]}"; do
    if [ $# -gt 0 ] && [[ " $* " != *" $item "* ]]; then
      usage_error "$name: unknown item '$item' (one of: $*)"
    fi
    [[ "$seen" != *" $item "* ]] || usage_error "$name names '$item' twice"
    seen+="$item "
  done
}

# Shared by scripts/*.sh: install what is missing (Debian 12, as root), configure, build.
# shellcheck shell=bash

AUGUR_PACKAGES=(
  git cmake ninja-build ccache g++ clang clang-format pkg-config
  libsimgrid-dev libboost-graph-dev libeigen3-dev catch2 libbenchmark-dev
  libasio-dev libcli11-dev nlohmann-json3-dev libssl-dev
  iproute2 iputils-ping openmpi-bin openssh-client procps
  openssh-server slurmctld slurmd slurm-client
  wordnet-base
  python3-matplotlib python3-pandas python3-ipykernel python3-nbformat jupyter-nbconvert
  pybind11-dev python3-dev python3-numpy python3-torch python3-pytest
)

log() { printf '[augur] %s\n' "$*" >&2; }

install_deps() {
  local missing=()
  for p in "${AUGUR_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    log "missing packages: ${missing[*]}; run as root or install them with apt-get"
    return 1
  fi
  log "installing ${#missing[@]} missing packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# build DIR [extra cmake args...]: configure (once) and build with Ninja.
# AUGUR_TARGETS (space-separated) limits the build to those targets.
build() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$AUGUR_ROOT" -B "$dir" -G Ninja "$@" >/dev/null
  fi
  local targets=()
  [ -n "${AUGUR_TARGETS:-}" ] && read -r -a targets <<<"$AUGUR_TARGETS"
  cmake --build "$dir" ${targets[@]:+--target "${targets[@]}"} -- -j"$(nproc)"
}

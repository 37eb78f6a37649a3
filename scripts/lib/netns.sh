# Shared by scripts/bench-fidelity.sh and tests/tcp/netns_test.sh: a star of
# network namespaces standing in for separate hosts. Needs root and iproute2.
# shellcheck shell=bash

# netns_star TAG SUBNET [N]: namespace TAG-br holds a bridge; TAG-0 .. TAG-(N-1)
# (default 3) each get a veth vI joined to it, address SUBNET.(I+1)/24, links
# up. Returns non-zero if a namespace cannot be made. The caller deletes
# TAG-br and TAG-I when done (netns_star_delete).
netns_star() {
  local tag=$1 subnet=$2 n=${3:-3} i
  ip netns add "$tag-br" 2>/dev/null || return 1
  ip -n "$tag-br" link add br0 type bridge
  ip -n "$tag-br" link set br0 up
  ip -n "$tag-br" link set lo up
  for ((i = 0; i < n; i++)); do
    ip netns add "$tag-$i"
    ip link add "v$i" netns "$tag-$i" type veth peer name "b$i" netns "$tag-br"
    ip -n "$tag-br" link set "b$i" master br0
    ip -n "$tag-br" link set "b$i" up
    ip -n "$tag-$i" addr add "$subnet.$((i + 1))/24" dev "v$i"
    ip -n "$tag-$i" link set "v$i" up
    ip -n "$tag-$i" link set lo up
  done
}

# netns_star_delete TAG [N]: removes what netns_star made (missing ones are fine).
netns_star_delete() {
  local tag=$1 n=${2:-3} i
  ip netns del "$tag-br" 2>/dev/null || true
  for ((i = 0; i < n; i++)); do ip netns del "$tag-$i" 2>/dev/null || true; done
}

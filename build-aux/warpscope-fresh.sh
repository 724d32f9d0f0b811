#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The new-machine rehearsal: a clean Debian 12 root, a clean clone of HEAD
# in it, and the README's two commands run there as a new user runs them.
#
#   1. debootstrap bookworm from the mirror apt-get uses on this machine
#      (its sources and its apt settings are copied in, nothing else); the
#      pristine root is kept as a tarball and unpacked anew for each
#      rehearsal, so a second rehearsal starts from the same clean root;
#   2. git clone of HEAD (committed work only) into /root/warpscope;
#   3. `warpscope-dev run` with WARPSCOPE_EXIT_AFTER_LOAD=1 under Xvfb (the
#      display a desktop has: Xvfb is installed for the rehearsal before
#      `run`, and is the only package the rehearsal itself adds);
#   4. `warpscope-dev test`.
#
# Each command's time and the packages it installed are printed.  What a
# command finds missing belongs in warpscope-dev, never here.
#
# The root is entered with chroot inside a private mount namespace
# (unshare -m): /proc, /sys, /dev, /dev/pts and /dev/shm are mounted there
# and go away with the namespace.  Needs root (or sudo).
#
# Usage: build-aux/warpscope-fresh.sh [--base-only] [WORKDIR]
#   WORKDIR defaults to /var/tmp/warpscope-fresh; --base-only makes the
#   pristine root's tarball and stops.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
base_only=0
[ "${1:-}" = --base-only ] && { base_only=1; shift; }
work=${1:-${WS_FRESH_DIR:-/var/tmp/warpscope-fresh}}
base=$work/bookworm-base.tar
target=$work/root
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)

say() { printf '\n== fresh: %s\n' "$*"; }

for tool in debootstrap unshare git; do
  command -v "$tool" >/dev/null || command -v "/usr/sbin/$tool" >/dev/null || {
    say "installing $tool"
    "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends "$tool"
  }
done

# The mirror apt-get uses here: the first URI of the main Debian source.
mirror=$(grep -hoE '^(URIs:|deb) +[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
  awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
[ -n "$mirror" ] || { echo "fresh: no Debian mirror found in /etc/apt" >&2; exit 1; }

"${sudo[@]}" mkdir -p "$work"
if [ ! -f "$base" ]; then
  say "debootstrap bookworm from $mirror (kept as $base for the next rehearsal)"
  start=$SECONDS
  "${sudo[@]}" rm -rf "$work/debootstrap"
  "${sudo[@]}" debootstrap --include=ca-certificates bookworm "$work/debootstrap" "$mirror"
  "${sudo[@]}" tar -C "$work/debootstrap" -cf "$base.part" .
  "${sudo[@]}" mv "$base.part" "$base"
  "${sudo[@]}" rm -rf "$work/debootstrap"
  echo "debootstrap took $((SECONDS - start)) s"
fi
[ $base_only -eq 1 ] && exit 0

say "a clean root from $base"
"${sudo[@]}" rm -rf "$target"
"${sudo[@]}" mkdir -p "$target"
"${sudo[@]}" tar -C "$target" -xf "$base"
# The package sources and apt settings of this machine (the same mirror,
# the same index options), and name resolution: nothing else of the host.
"${sudo[@]}" rm -f "$target/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] && "${sudo[@]}" cp "$f" "$target$f"
done
"${sudo[@]}" cp /etc/resolv.conf "$target/etc/resolv.conf"
echo "fresh" | "${sudo[@]}" tee "$target/etc/hostname" >/dev/null

say "a clean clone of HEAD ($(git -C "$repo" rev-parse --short HEAD))"
"${sudo[@]}" git clone -q --no-local "$repo" "$target/root/warpscope"

# Runs a command inside the root as root, with a login-like environment.
inside() {
  "${sudo[@]}" unshare -m --propagation private bash -c '
    set -e
    t=$1; shift
    mount -t proc proc "$t/proc"
    mount -t sysfs sys "$t/sys"
    mount --rbind /dev "$t/dev"
    mount -t tmpfs -o mode=1777 tmpfs "$t/dev/shm"
    mount -t tmpfs -o mode=1777 tmpfs "$t/tmp"
    exec chroot "$t" /usr/bin/env -i HOME=/root USER=root LOGNAME=root TERM=dumb LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
  ' bash "$target" "$@"
}

packages() { inside dpkg-query -W -f '${Package}\n' | sort; }

run_timed() { # label command...
  local label=$1 before after start
  shift
  before=$(mktemp)
  after=$(mktemp)
  packages >"$before"
  say "$label"
  start=$SECONDS
  local status=0
  inside "$@" || status=$?
  FRESH_SECONDS[$label]=$((SECONDS - start))
  packages >"$after"
  comm -13 "$before" "$after" >"$work/installed-by-${label##* }.txt"
  FRESH_INSTALLED[$label]="$(wc -l <"$work/installed-by-${label##* }.txt") packages ($work/installed-by-${label##* }.txt)"
  rm -f "$before" "$after"
  printf '%s: exit %d after %d min %02d s\n' "$label" "$status" \
    $((FRESH_SECONDS[$label] / 60)) $((FRESH_SECONDS[$label] % 60))
  return $status
}

declare -A FRESH_SECONDS FRESH_INSTALLED

say "the display a desktop has (Xvfb), for 'run' alone"
inside bash -c 'apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends xvfb xauth >/dev/null'

status=0
run_timed "warpscope-dev run" bash -c \
  'cd /root/warpscope && WARPSCOPE_EXIT_AFTER_LOAD=1 xvfb-run -a ./build-aux/warpscope-dev run' || status=1
if [ $status -eq 0 ]; then
  run_timed "warpscope-dev test" bash -c 'cd /root/warpscope && ./build-aux/warpscope-dev test' || status=1
fi

say "summary"
for label in "warpscope-dev run" "warpscope-dev test"; do
  [ -n "${FRESH_SECONDS[$label]:-}" ] || continue
  printf '%-20s %d min %02d s\n' "$label" $((FRESH_SECONDS[$label] / 60)) $((FRESH_SECONDS[$label] % 60))
  printf '  installed: %s\n' "${FRESH_INSTALLED[$label]:-nothing}"
done
[ $status -eq 0 ] && echo "fresh: both commands passed on a new Debian 12 root" ||
  echo "fresh: FAILED on a new Debian 12 root (the root stays in $target to look at)"
exit $status

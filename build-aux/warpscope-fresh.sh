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
#   4. `warpscope-dev deb`: the Debian packages, built and checked with
#      lintian in the same root;
#   5. the packages installed with apt into a second clean root from the
#      same tarball, and checked there by build-aux/fresh-install-check.sh
#      (the CLI alone pulls no GTK; the installed window opens the demo;
#      xdg-mime, desktop-file-validate, appstreamcli; a clean purge);
#   6. `warpscope-dev test` (left out with --no-test).
#
# Each command's time and the packages it installed are printed.  What a
# command finds missing belongs in warpscope-dev, never here.
#
# The root is entered with chroot inside a private mount namespace
# (unshare -m): /proc, /sys, /dev, /dev/pts and /dev/shm are mounted there
# and go away with the namespace.  Needs root (or sudo).
#
# Usage: build-aux/warpscope-fresh.sh [--base-only] [--no-test] [WORKDIR]
#   WORKDIR defaults to /var/tmp/warpscope-fresh; --base-only makes the
#   pristine root's tarball and stops; --no-test stops after the packages'
#   rehearsal (the suite's hour on two cores is the one step left out).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
base_only=0
no_test=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base-only) base_only=1 ;;
    --no-test) no_test=1 ;;
    -*) echo "usage: $0 [--base-only] [--no-test] [WORKDIR]" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
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

# A clean root from the pristine tarball, with the package sources and apt
# settings of this machine (the same mirror, the same index options) and
# name resolution: nothing else of the host.
new_root() { # dir
  say "a clean root in $1 from $base"
  "${sudo[@]}" rm -rf "$1"
  "${sudo[@]}" mkdir -p "$1"
  "${sudo[@]}" tar -C "$1" -xf "$base"
  "${sudo[@]}" rm -f "$1/etc/apt/sources.list"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources /etc/apt/apt.conf.d/*; do
    [ -f "$f" ] && "${sudo[@]}" cp "$f" "$1$f"
  done
  "${sudo[@]}" cp /etc/resolv.conf "$1/etc/resolv.conf"
  echo "fresh" | "${sudo[@]}" tee "$1/etc/hostname" >/dev/null
}
new_root "$target"

say "a clean clone of HEAD ($(git -C "$repo" rev-parse --short HEAD))"
"${sudo[@]}" git clone -q --no-local "$repo" "$target/root/warpscope"

# Runs a command inside the root as root, with a login-like environment.
inside() { inside_root "$target" "$@"; }
inside_root() { # root command...
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
  ' bash "$@"
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
  run_timed "warpscope-dev deb" bash -c 'cd /root/warpscope && ./build-aux/warpscope-dev deb' || status=1
fi
if [ $status -eq 0 ]; then
  installed=$work/root-install
  new_root "$installed"
  "${sudo[@]}" mkdir -p "$installed/root/debs"
  "${sudo[@]}" cp "$target"/root/warpscope/build-deb/*.deb "$target/root/warpscope/data/demo/h100_probe.sqlite" \
    "$target/root/warpscope/build-aux/fresh-install-check.sh" "$installed/root/debs/"
  say "the packages, installed into a second clean root"
  start=$SECONDS
  inside_root "$installed" bash /root/debs/fresh-install-check.sh || status=1
  FRESH_SECONDS["packages installed"]=$((SECONDS - start))
fi
if [ $status -eq 0 ] && [ $no_test -eq 0 ]; then
  run_timed "warpscope-dev test" bash -c 'cd /root/warpscope && ./build-aux/warpscope-dev test' || status=1
fi

say "summary"
for label in "warpscope-dev run" "warpscope-dev deb" "packages installed" "warpscope-dev test"; do
  [ -n "${FRESH_SECONDS[$label]:-}" ] || continue
  printf '%-20s %d min %02d s\n' "$label" $((FRESH_SECONDS[$label] / 60)) $((FRESH_SECONDS[$label] % 60))
  [ -n "${FRESH_INSTALLED[$label]:-}" ] && printf '  installed: %s\n' "${FRESH_INSTALLED[$label]}"
done
[ $status -eq 0 ] && [ $no_test -eq 1 ] && echo "fresh: run, deb and the packages' install passed on new Debian 12 roots (test left out)"
[ $status -eq 0 ] && [ $no_test -eq 0 ] && echo "fresh: run, deb, the packages' install and test passed on new Debian 12 roots"
[ $status -eq 0 ] ||
  echo "fresh: FAILED on a new Debian 12 root (the root stays in $target to look at)"
exit $status

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the Debian packages warpscope and warpscope-cli (debian/) from the
# working tree and checks them with lintian.  Called by
# `build-aux/warpscope-dev deb`, which has installed dpkg-dev and lintian.
#
#   1. the tree's files (tracked and untracked, without what .gitignore
#      leaves out: no build folders) are copied to build-deb/src/, so that
#      nothing is written into the tree or beside it;
#   2. the build dependencies debian/control names are installed when
#      dpkg-checkbuilddeps finds some missing (apt-get build-dep);
#   3. dpkg-buildpackage -us -uc -b;
#   4. lintian on the .changes: an error or a warning fails it, and so
#      does any other tag (info) that debian/README.source does not name
#      with the reason it stays;
#   5. the packages' file lists against debian/*.install: the tests'
#      check of the same lists (tests/check-debian-install.py) reads the
#      patterns, this one the packages dpkg-deb made.
#
# The packages, the .changes and the build log end in build-deb/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build-deb
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)

version=$(sed -n "s/^  version: '\([^']*\)',$/\1/p" "$root/meson.build")
[ -n "$version" ] || { echo "warpscope-deb: no version found in meson.build" >&2; exit 1; }
src=$out/src/warpscope-$version

echo "== deb: copying the tree to $src"
rm -rf "$out"
mkdir -p "$src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -C "$src" -xf -

cd "$src"
if ! dpkg-checkbuilddeps >/dev/null 2>&1; then
  echo "== deb: installing the build dependencies of debian/control"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q --no-install-recommends ./
fi

echo "== deb: dpkg-buildpackage -us -uc -b (log: $out/build.log)"
start=$SECONDS
if ! dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log" >&2
  echo "warpscope-deb: the package build failed (whole log: $out/build.log)" >&2
  exit 1
fi
echo "built in $((SECONDS - start)) s"
cd "$out/src"
mv -- *.deb *.changes *.buildinfo "$out/"
cd "$out"
changes=$(ls ./*.changes)

echo "== deb: lintian"
lintian_status=0
lintian --info --display-info --show-overrides --fail-on error,warning "$changes" | tee "$out/lintian.txt" ||
  lintian_status=$?
if [ $lintian_status -ne 0 ]; then
  echo "warpscope-deb: lintian found errors or warnings that debian/README.source does not explain" >&2
  exit 1
fi
# Every tag left (info included), and every tag overridden, is named in
# README.source with the reason it stays.
for tag in $( (sed -n 's/^[EWIPX]: [^ ]*: \([a-z0-9-]*\).*/\1/p' "$out/lintian.txt"
  sed -n 's/^[a-z0-9-]*: *\([a-z0-9-]*\).*/\1/p' "$src"/debian/*lintian-overrides 2>/dev/null) | sort -u); do
  grep -q -- "$tag" "$src/debian/README.source" ||
    { echo "warpscope-deb: lintian says $tag but debian/README.source does not say why it stays" >&2; exit 1; }
  echo "lintian: $tag stays, for the reason debian/README.source gives"
done

echo "== deb: what each package holds, against debian/*.install"
status=0
for deb in ./*.deb; do
  name=$(dpkg-deb -f "$deb" Package)
  # The debug symbols dh_strip split off: their own package, no .install.
  case "$name" in *-dbgsym) continue ;; esac
  dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {sub(/^\.\//, "", $6); print $6}' | sort >"$out/$name.files"
  python3 "$root/tests/check-debian-install.py" --package-list "$src/debian/$name.install" "$out/$name.files" ||
    status=1
  printf '%-16s %s, %d files\n' "$name" "$(du -h "$deb" | cut -f1)" "$(grep -cv '^usr/share/doc/' "$out/$name.files")"
done
[ $status -eq 0 ] || exit 1
echo "warpscope-deb: packages in $out:"
ls -1 "$out"/*.deb

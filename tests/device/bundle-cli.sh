#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds warpscope-cli for a machine that has none of its libraries (the
# GPU machines lent here have libsqlite3 but no GLib, json-glib, Cairo or
# Pango) and gathers it with them into one folder, to be carried there:
#
#   tests/device/bundle-cli.sh BUNDLE      # here, from the repository root
#
# BUNDLE/warpscope-cli (and warpscope-cli-full) finds its libraries in BUNDLE/lib through a DT_RPATH
# of $ORIGIN/lib, so that nothing is put into LD_LIBRARY_PATH, which the
# capture's nsys, ncu and target program would inherit.  BUNDLE/nsys-lib
# gets libdw.so.1: the QdstrmImporter of the nsys inside Nsight Compute
# 2025.3.1 needs it and those machines lack it (capture-probe.sh --nsys-lib).
#
# For bench-nsys-stats.sh, which generates its exports there with
# bench/gen-export.sh: BUNDLE/bin/sqlite3 runs this machine's sqlite3 command
# (BUNDLE/libexec/sqlite3, which those machines lack) with LD_LIBRARY_PATH set
# to BUNDLE/lib for itself alone, and BUNDLE/fixture holds the export that
# gen-export.sh replicates, should the fixtures be left out of the tree that
# travels.
set -euo pipefail
bundle=${1:?usage: $0 BUNDLE}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build="$repo/build-device"

if [ ! -d "$build" ]; then
  meson setup "$build" "$repo" -Dgui=disabled --buildtype=release \
    -Dc_link_args="-Wl,-rpath,\$ORIGIN/lib -Wl,--disable-new-dtags"
fi
ninja -C "$build" src/cli/warpscope-cli src/cli/warpscope-cli-full

mkdir -p "$bundle/lib" "$bundle/nsys-lib"
# warpscope-cli hands the commands that draw to warpscope-cli-full, which
# it finds beside itself.
cp "$build/src/cli/warpscope-cli" "$build/src/cli/warpscope-cli-full" "$bundle/"
# Every library but the C library's own, which the target machine has.
ldd "$build/src/cli/warpscope-cli" "$build/src/cli/warpscope-cli-full" | awk '/=> \//{print $3}' |
  grep -vE '/(libc|libm|libpthread|libdl|librt|libresolv)\.so|ld-linux' |
  while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
# libdw needs libelf, which those machines may lack too.
for name in libdw.so.1 libelf.so.1; do
  lib=$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ {print $NF; exit}')
  if [ -n "$lib" ]; then
    cp -L "$lib" "$bundle/nsys-lib/"
  else
    echo "no $name here (apt-get install libdw1 libelf1): not in nsys-lib" >&2
  fi
done
# The sqlite3 command and the libraries it needs (libsqlite3 of the same
# version: the shell refuses another), run through a wrapper.
sqlite3_bin=$(command -v sqlite3) || { echo "no sqlite3 command here (apt-get install sqlite3)" >&2; exit 1; }
mkdir -p "$bundle/bin" "$bundle/libexec" "$bundle/fixture"
cp -L "$sqlite3_bin" "$bundle/libexec/sqlite3"
ldd "$sqlite3_bin" | awk '/=> \//{print $3}' |
  grep -vE '/(libc|libm|libpthread|libdl|librt|libresolv)\.so|ld-linux' |
  while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
cat >"$bundle/bin/sqlite3" <<'WRAPPER'
#!/bin/sh
# This machine's sqlite3 with the libraries of the bundle, for itself alone.
here=$(cd "$(dirname "$0")/.." && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/libexec/sqlite3" "$@"
WRAPPER
chmod +x "$bundle/bin/sqlite3"
"$bundle/bin/sqlite3" --version >/dev/null
cp "$repo/tests/data/nsys/v2025.3_h100_probe.sqlite" "$bundle/fixture/"
du -sh "$bundle"

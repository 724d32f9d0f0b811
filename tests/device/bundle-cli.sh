#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds warpscope-cli for a machine that has none of its libraries (the
# GPU machines lent here have libsqlite3 but no GLib, json-glib, Cairo or
# Pango) and gathers it with them into one folder, to be carried there:
#
#   tests/device/bundle-cli.sh BUNDLE      # here, from the repository root
#
# BUNDLE/warpscope-cli finds its libraries in BUNDLE/lib through a DT_RPATH
# of $ORIGIN/lib, so that nothing is put into LD_LIBRARY_PATH, which the
# capture's nsys, ncu and target program would inherit.  BUNDLE/nsys-lib
# gets libdw.so.1: the QdstrmImporter of the nsys inside Nsight Compute
# 2025.3.1 needs it and those machines lack it (capture-probe.sh --nsys-lib).
set -euo pipefail
bundle=${1:?usage: $0 BUNDLE}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build="$repo/build-device"

if [ ! -d "$build" ]; then
  meson setup "$build" "$repo" -Dgui=disabled --buildtype=release \
    -Dc_link_args="-Wl,-rpath,\$ORIGIN/lib -Wl,--disable-new-dtags"
fi
ninja -C "$build" src/cli/warpscope-cli

mkdir -p "$bundle/lib" "$bundle/nsys-lib"
cp "$build/src/cli/warpscope-cli" "$bundle/"
# Every library but the C library's own, which the target machine has.
ldd "$build/src/cli/warpscope-cli" | awk '/=> \//{print $3}' |
  grep -vE '/(libc|libm|libpthread|libdl|librt|libresolv)\.so|ld-linux' |
  while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
libdw=$(ldconfig -p | awk '/libdw\.so\.1 .*x86-64/{print $NF; exit}')
if [ -n "$libdw" ]; then
  cp -L "$libdw" "$bundle/nsys-lib/"
else
  echo "no libdw.so.1 here (apt-get install libdw1): nsys-lib left empty" >&2
fi
du -sh "$bundle"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# input.sh [-B BUILDDIR] [N...] - the main loop under input (issue 16).
#
# For synthetic nsys exports of N kernels (default 10^6; see gen-export.sh),
# runs BUILDDIR/bench/input-latency under Xvfb: the window opens the export,
# then each input is made as a user makes it (name form, kernel filter,
# Timeline search and Return, a stretch dragged on the ruler, the
# comparison's match-by form and Swap), and the longest main-loop iteration
# until its result is shown is printed.  Goal: none longer than 50 ms.
#
# BUILDDIR (default: build at the top of the source tree) must be a GUI
# build; it is brought up to date.  Environment: BENCH_DIR (where the
# generated exports are kept, as for run.sh), WS_XVFB_SERVERNUM (the Xvfb
# display number; default: a free one, found by xvfb-run -a).

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="1000000"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_parse_args 4,16 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(1000000)

build="${build_dir:-$src_root/build}"
case "$build" in
  /*) ;;
  *) build="$PWD/$build" ;;
esac
ninja -C "$build" bench/input-latency data/gschemas.compiled >&2
cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
xvfb=(xvfb-run -a -s '-screen 0 1920x1080x24')
[ -n "${WS_XVFB_SERVERNUM:-}" ] && xvfb=(xvfb-run -n "$WS_XVFB_SERVERNUM" -s '-screen 0 1920x1080x24')

for n in "${ns[@]}"; do
  file="$cache_dir/nsys-synth-$n-$gen_key.sqlite"
  if [ ! -f "$file" ]; then
    mkdir -p "$cache_dir"
    "$bench_dir/gen-export.sh" "$n" "$file" >&2
  fi
  echo "== $n kernels" >&2
  GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
    DBUS_SESSION_BUS_ADDRESS=disabled: LC_ALL=C.UTF-8 LANGUAGE=C \
    "${xvfb[@]}" "$build/bench/input-latency" "$file"
done

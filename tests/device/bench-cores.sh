#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench-cores.sh BUNDLE - issue 41's figures on a GPU machine of many
# cores, from the repository root, in one device call:
#
#   1. a real export of its own: nvtx_heavy_probe.py under nsys (CUDA, NVTX
#      and OS runtime), exported to $BENCH_DIR/nvtx-heavy.sqlite; the export
#      comes back xz-compressed in $OUT/nvtx-heavy.sqlite.xz;
#   2. bench-nsys-stats.sh on the 1.5M synthetic export and on that one,
#      with BUNDLE/warpscope-cli-base (the commit before) timed beside.
#
#   3. with BENCH_WINDOW=N, bench/reports.sh at N kernels (the sqlite3
#      scan, the first frame and the full load of a window, before and
#      after), one run each.
#
# Environment: OUT (default a new folder in /tmp), BENCH_RUNS (default 3),
# BENCH_SIZES (default 1500000), REAL_XZ=FILE.sqlite.xz to use that export
# (one this script made before) instead of capturing, BENCH_WINDOW,
# SKIP_STATS=1 to leave out step 2.
set -u
bundle=$(cd "${1:?usage: $0 BUNDLE}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
cache=${BENCH_DIR:-/tmp/warpscope-bench}
mkdir -p "$out" "$cache"
# shellcheck disable=SC2012
nsys=$(ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)
[ -x "$nsys" ] || { echo "bench-cores.sh: no nsys under /opt/nvidia/nsight-compute" >&2; exit 1; }
real="$cache/nvtx-heavy.sqlite"
if [ -n "${REAL_XZ:-}" ]; then
  xz -dc "$REAL_XZ" >"$real" || exit 1
else
  work=$(mktemp -d)
  start=$(date +%s)
  LD_LIBRARY_PATH="$bundle/nsys-lib" "$nsys" profile -t cuda,nvtx,osrt -o "$work/heavy" \
    --force-overwrite true python3 "$here/nvtx_heavy_probe.py" >"$out/profile.log" 2>&1 ||
    { tail "$out/profile.log"; exit 1; }
  LD_LIBRARY_PATH="$bundle/nsys-lib" "$nsys" export --type sqlite -o "$real" \
    --force-overwrite true "$work/heavy.nsys-rep" >>"$out/profile.log" 2>&1 ||
    { tail "$out/profile.log"; exit 1; }
  echo "capture and export: $(($(date +%s) - start)) s" >>"$out/profile.log"
  xz -T0 -6 -c "$real" >"$out/nvtx-heavy.sqlite.xz"
  rm -rf "$work"
fi
"$bundle/bin/sqlite3" "file:$real?mode=ro&immutable=1" \
  "SELECT 'kernels', count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL
   SELECT 'runtime', count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL
   SELECT 'nvtx', count(*) FROM NVTX_EVENTS UNION ALL
   SELECT 'osrt', count(*) FROM OSRT_API" >"$out/nvtx-heavy.counts" 2>&1
cat "$out/nvtx-heavy.counts"
# shellcheck disable=SC2086
[ "${SKIP_STATS:-0}" = 1 ] ||
  OUT="$out" BENCH_RUNS="${BENCH_RUNS:-3}" WS_BASELINE="$bundle/warpscope-cli-base" \
    "$here/bench-nsys-stats.sh" "$bundle" "$nsys" ${BENCH_SIZES:-1500000} "$real"
if [ -n "${BENCH_WINDOW:-}" ]; then
  fixture="$here/../data/nsys/v2025.3_h100_probe.sqlite"
  [ -f "$fixture" ] || fixture=$(ls "$bundle"/fixture/*.sqlite | head -n 1)
  PATH="$bundle/bin:$PATH" BENCH_RUNS=1 BENCH_REPORTS=cuda_gpu_kern_sum BENCH_FIXTURE="$fixture" \
    WARPSCOPE_CLI="$bundle/warpscope-cli" BASELINE_CLI="$bundle/warpscope-cli-base" \
    "$here/../../bench/reports.sh" "$BENCH_WINDOW"
fi

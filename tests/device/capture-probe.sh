#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A real capture of tests/data/probe.cu (the workload of the H100 fixtures)
# on a machine with an NVIDIA GPU, through `warpscope-cli capture`:
#
#   tests/device/capture-probe.sh --cli PATH --nsys PATH --ncu PATH \
#       [--nsys-lib DIR] [--out DIR] [--topn N] [--launch-count N]
#
#   --cli           warpscope-cli to run (default: build/src/cli/warpscope-cli)
#   --nsys, --ncu   the profilers (default: as warpscope-cli finds them)
#   --nsys-lib DIR  a folder put on LD_LIBRARY_PATH for nsys only, through a
#                   wrapper script: the nsys inside Nsight Compute 2025.3.1
#                   writes only a .qdstrm when its QdstrmImporter cannot load
#                   libdw.so.1 (bundle-cli.sh puts one in BUNDLE/nsys-lib)
#   --out DIR       where the work folder goes (default: a new temporary one)
#   --topn N        kernels profiled with ncu (default 3)
#   --launch-count  launches of each kernel that ncu profiles (default 1)
#
# It compiles probe.cu with `nvcc -lineinfo`, writes a one-row targets.tsv,
# runs `warpscope-cli doctor` and `capture`, then prints the output tree,
# the run.json manifest, `warpscope-cli info` and `stats` of the SQLite
# export, and `gauges` and `diagnose` of the capture folder.
# Exit status: that of `warpscope-cli capture`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli="$repo/build/src/cli/warpscope-cli"
nsys=
ncu=
nsys_lib=
work=
topn=3
launch_count=1

while [ $# -gt 0 ]; do
  case $1 in
  --cli) cli=$2; shift 2 ;;
  --nsys) nsys=$2; shift 2 ;;
  --ncu) ncu=$2; shift 2 ;;
  --nsys-lib) nsys_lib=$(cd "$2" && pwd); shift 2 ;;
  --out) work=$2; shift 2 ;;
  --topn) topn=$2; shift 2 ;;
  --launch-count) launch_count=$2; shift 2 ;;
  *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$work" ] || work=$(mktemp -d /tmp/warpscope-probe-XXXXXX)
mkdir -p "$work"
work=$(cd "$work" && pwd)
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")

echo "== work folder: $work"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
nvcc --version | tail -n 1
if ! nvcc -lineinfo -O2 -arch=native -o "$work/probe" "$repo/tests/data/probe.cu"; then
  nvcc -lineinfo -O2 -o "$work/probe" "$repo/tests/data/probe.cu" || exit 2
fi

if [ -n "$nsys_lib" ]; then
  real_nsys=${nsys:-$(command -v nsys)}
  [ -n "$real_nsys" ] || { echo "$0: --nsys-lib needs --nsys" >&2; exit 2; }
  cat >"$work/nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$nsys_lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$real_nsys" "\$@"
WRAPPER
  chmod +x "$work/nsys"
  nsys="$work/nsys"
fi

printf 'NAME\tCMD\tWORKDIR\tENVS\nprobe\t./probe\t.\t-\n' >"$work/targets.tsv"
cd "$work" || exit 2

tool_args=()
[ -n "$nsys" ] && tool_args+=(--nsys "$nsys")
[ -n "$ncu" ] && tool_args+=(--ncu "$ncu")

echo "== warpscope-cli doctor"
"$cli" doctor "${tool_args[@]}" --out "$work/out"
echo "== warpscope-cli capture"
"$cli" capture --targets targets.tsv --out out "${tool_args[@]}" --topn "$topn" \
  --launch-count "$launch_count"
status=$?
echo "== capture exit status: $status"
echo "== output tree"
find out -type f -printf '%8s  %p\n' | sort -k2
for manifest in out/*/*/run.json; do
  echo "== $manifest"
  cat "$manifest"
  echo
done
for db in out/*/*/nsys/*.sqlite; do
  [ -f "$db" ] || continue
  echo "== warpscope-cli info $db"
  "$cli" info "$db"
  echo "== warpscope-cli stats $db"
  "$cli" stats "$db"
  truth=${db%.sqlite}_cuda_gpu_kern_sum.csv
  if [ -f "$truth" ]; then
    # Rows of equal totals may come in another order: compare sorted lines.
    echo "== warpscope-cli stats --format csv against nsys stats: $truth"
    if diff <("$cli" stats --format csv "$db" | sort) <(sort "$truth"); then
      echo "identical"
    fi
  fi
done
for capture in out/*/*/; do
  [ -d "$capture/ncu" ] || continue
  echo "== warpscope-cli gauges $capture"
  "$cli" gauges "$capture"
  echo "== warpscope-cli diagnose $capture"
  "$cli" diagnose "$capture"
done
exit $status

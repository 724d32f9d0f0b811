#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench-kineto-cores.sh BUNDLE [SIZE_MB...] - issue 41's trace figures on
# a machine of many cores, from the repository root, in one device call.
# For each size (default 300 and 1000), a synthetic PyTorch profiler trace
# made by bench/gen-kineto.py from BUNDLE/seed.json.gz (the real training
# trace tests/data/kineto/captures/lm_train_rank0.json.gz), then
# `warpscope-cli info` timed on it, BENCH_RUNS times each (default 3,
# medians), by GNU time:
#
#   - every core (the events read in pieces, ws-kineto-parallel.c);
#   - one worker (WARPSCOPE_THREADS=1: the reader of one thread);
#   - one core (taskset -c 3): the MB/s of CPU the goal names;
#   - BUNDLE/warpscope-cli-base, the commit before, for the memory.
#
# `info --format json` of every core and of one worker must be the same
# bytes.  Prints one table; leaves the runs' figures in $OUT/kineto.tsv.
set -u
bundle=$(cd "${1:?usage: $0 BUNDLE [SIZE_MB...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
cache=${BENCH_DIR:-/tmp/warpscope-bench}
runs=${BENCH_RUNS:-3}
mkdir -p "$out" "$cache"
cli="$bundle/warpscope-cli"
base="$bundle/warpscope-cli-base"
[ $# -gt 0 ] || set -- 300 1000

# median of the numbers on stdin
median () { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed LABEL CMD... - runs CMD $runs times; prints "LABEL wall cpu rss_kib"
timed ()
{
  local label="$1" i
  shift
  : >"$out/t.$label"
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f "%e %U %S %M" -o "$out/time.last" "$@" >/dev/null 2>"$out/err.$label" ||
      { echo "$label failed: $(tail -n 1 "$out/err.$label")" >&2; return 1; }
    cat "$out/time.last" >>"$out/t.$label"
  done
  printf '%s %s %s %s\n' "$label" \
    "$(awk '{ print $1 }' "$out/t.$label" | median)" \
    "$(awk '{ print $2 + $3 }' "$out/t.$label" | median)" \
    "$(awk '{ print $4 }' "$out/t.$label" | median)"
}

echo "host: $(nproc) CPUs ($(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -n 1))"
printf 'size_mb\trun\twall_s\tcpu_s\trss_mib\tmb_per_s_wall\tmb_per_s_cpu\n' >"$out/kineto.tsv"
status=0
for size in "$@"; do
  trace="$cache/kineto-$size.json"
  [ -s "$trace" ] || python3 "$here/../../bench/gen-kineto.py" "$size" "$trace" "$bundle/seed.json.gz" >&2 ||
    exit 1
  bytes=$(stat -c %s "$trace")
  cat "$trace" >/dev/null
  "$cli" info --format json "$trace" >"$out/all.json" 2>&1
  WARPSCOPE_THREADS=1 "$cli" info --format json "$trace" >"$out/one.json" 2>&1
  if cmp -s "$out/all.json" "$out/one.json"; then
    echo "$size MB: info --format json the same bytes on every core and on one"
  else
    echo "$size MB: info --format json DIFFERS between every core and one worker"
    status=1
  fi
  {
    timed all "$cli" info "$trace"
    timed one env WARPSCOPE_THREADS=1 "$cli" info "$trace"
    timed core3 taskset -c 3 "$cli" info "$trace"
    [ -x "$base" ] && timed base "$base" info "$trace"
  } | while read -r label wall cpu rss; do
    printf '%s\t%s\t%s\t%s\t%.0f\t%.0f\t%.0f\n' "$size" "$label" "$wall" "$cpu" "$((rss / 1024))" \
      "$(awk -v b="$bytes" -v t="$wall" 'BEGIN { print b / 1e6 / t }')" \
      "$(awk -v b="$bytes" -v t="$cpu" 'BEGIN { print b / 1e6 / t }')" >>"$out/kineto.tsv"
  done
done
cat "$out/kineto.tsv"
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# timeline.sh [-B BUILDDIR] [N...] - the timeline benchmark (issue 5).
#
# For synthetic nsys exports of N kernels (default 10^6 and 10^7; about
# N/10 NVTX ranges and N CUDA API calls, see gen-export.sh), measures with
# bench/redraw-timing (the render library's timeline drawing onto an image
# surface), at 1920x1080:
#
#   full zoom-out   median and 95th percentile of one full redraw of the
#                   whole run (--repeat 50 --range fit), in wall time and in
#                   the drawing thread's CPU time
#   random zoom     the same over 50 random zoom levels (--repeat 50): spans
#                   log-uniform between the whole run and 100 us, centred
#                   at a uniformly random time
#   bytes/event     what the timeline's own structures (lanes, their copied
#                   times and styles, block summaries) hold per event
#   first frame     wall time from starting `redraw-timing --repeat 1` (load the
#                   export, build the lanes, draw one frame) against
#                   `warpscope-cli info` (load only), median of BENCH_RUNS;
#                   with the time the lanes and the first draw took in it
#
# Goals: median <= 8 ms and p95 <= 16 ms at 10^7; <= 16 bytes per event;
# first frame <= 1.2 x load.  Results on stdout as a Markdown table;
# progress on stderr.  Environment and the choice of warpscope-cli as in
# bench/run.sh (BENCH_DIR, BENCH_RUNS, WARPSCOPE_CLI, -B BUILDDIR);
# WARPSCOPE_REDRAW_TIMING names another redraw-timing.

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="1000000 10000000"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_parse_args 4,25 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(1000000 10000000)
set -- "${ns[@]}"

cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
runs="${BENCH_RUNS:-3}"
case "$runs" in
  '' | *[!0-9]*) echo "$0: BENCH_RUNS must be a positive integer" >&2; exit 2 ;;
esac
[ "$runs" -ge 1 ] || usage
repeat=50
size=1920x1080

bench_find_cli
if [ ! -x "$cli" ]; then
  echo "$0: no warpscope-cli at $cli; build one, pass -B BUILDDIR, or set WARPSCOPE_CLI" >&2
  exit 1
fi
bench_find_redraw
if [ ! -x "$redraw" ]; then
  echo "$0: no redraw-timing at $redraw; build one, pass -B BUILDDIR, or set WARPSCOPE_REDRAW_TIMING" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-timeline.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
failed=0

# The same cache of generated files as bench/run.sh (same names, same key).
ensure_file ()
{
  file="$cache_dir/nsys-synth-$1-$gen_key.sqlite"
  if [ -f "$file" ]; then
    echo "  reusing $file" >&2
  else
    mkdir -p "$cache_dir"
    "$bench_dir/gen-export.sh" "$1" "$file"
  fi
}

# wall CMD... - runs CMD (stdout to $work/out, stderr to $work/err) and
# prints its wall time in seconds; fails if CMD does.
wall ()
{
  local t0 t1
  t0=$(date +%s%N)
  "$@" >"$work/out" 2>"$work/err" || { echo "  FAILED: $*" >&2; tail -n 5 "$work/err" >&2; return 1; }
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

# field KEY FILE - the value of the word KEY=VALUE in the last line of FILE
# that has it.
field ()
{
  awk -v key="$1" '{ for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) v = substr($i, length(key) + 2) }
    END { print v }' "$2"
}

verdict ()
{
  awk -v v="$1" -v goal="$2" 'BEGIN { print (v <= goal) ? "ok" : "MISSED" }'
}

echo "Warpscope timeline benchmark: redraw time, memory per event, open to first frame"
echo "  cli:     $cli"
echo "  redraw:  $redraw"
echo "  source:  $(git -C "$src_root" describe --always --dirty 2>/dev/null || echo unknown)"
echo "  host:    $(nproc 2>/dev/null || echo '?') CPUs ($(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)), load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null)"
echo "  method:  $size, $repeat redraws onto an image surface per figure (one process);" \
     "first frame and load: median of $runs warm runs after one warm-up"
echo

rows=""
for n in "$@"; do
  echo "N = $n" >&2
  ensure_file "$n"
  fit_med=FAIL fit_p95=FAIL rnd_med=FAIL rnd_p95=FAIL bytes=FAIL events=FAIL
  fit_cpu=FAIL rnd_cpu=FAIL
  load=FAIL first=FAIL ratio=FAIL build=FAIL draw=FAIL

  if wall "$redraw" --view timeline --repeat "$repeat" --range fit --size "$size" "$file" >/dev/null; then
    fit_med=$(field median "$work/out"); fit_p95=$(field p95 "$work/out")
    fit_cpu="$(field cpu_median "$work/out") / $(field cpu_p95 "$work/out")"
    bytes=$(field bytes_per_event "$work/out"); events=$(field events "$work/out")
    echo "  full zoom-out: median $fit_med ms, p95 $fit_p95 ms (CPU $fit_cpu ms);" \
         "$bytes bytes/event over $events events" >&2
  else
    failed=1
  fi
  if wall "$redraw" --view timeline --repeat "$repeat" --size "$size" "$file" >/dev/null; then
    rnd_med=$(field median "$work/out"); rnd_p95=$(field p95 "$work/out")
    rnd_cpu="$(field cpu_median "$work/out") / $(field cpu_p95 "$work/out")"
    echo "  random zoom:   median $rnd_med ms, p95 $rnd_p95 ms (CPU $rnd_cpu ms)" >&2
  else
    failed=1
  fi

  # Warm-up runs, then alternate the two commands so that both see the
  # same machine.
  loads="" firsts="" builds="" draws=""
  if wall "$cli" info "$file" >/dev/null && \
     wall "$redraw" --view timeline --repeat 1 --range fit --size "$size" "$file" >/dev/null; then
    for i in $(seq "$runs"); do
      l=$(wall "$cli" info "$file") || { failed=1; break; }
      f=$(wall "$redraw" --view timeline --repeat 1 --range fit --size "$size" "$file") || { failed=1; break; }
      loads="$loads $l"; firsts="$firsts $f"
      builds="$builds $(field build_ms "$work/out")"; draws="$draws $(field median "$work/out")"
    done
    if [ -n "$loads" ]; then
      # shellcheck disable=SC2086
      load=$(median $loads)
      # shellcheck disable=SC2086
      first=$(median $firsts)
      ratio=$(awk -v a="$first" -v b="$load" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
      # shellcheck disable=SC2086
      build=$(median $builds)
      # shellcheck disable=SC2086
      draw=$(median $draws)
      echo "  load (info): $load s (runs:$loads); first frame: $first s (runs:$firsts); ratio $ratio" >&2
      echo "  of which lanes $build ms (runs:$builds), first draw $draw ms (runs:$draws)" >&2
    fi
  else
    failed=1
  fi

  goals=""
  if [ "$n" -ge 10000000 ] && [ "$fit_med" != FAIL ] && [ "$rnd_med" != FAIL ]; then
    goals="median $(verdict "$(printf '%s\n%s\n' "$fit_med" "$rnd_med" | sort -g | tail -n 1)" 8),"
    goals="$goals p95 $(verdict "$(printf '%s\n%s\n' "$fit_p95" "$rnd_p95" | sort -g | tail -n 1)" 16),"
  fi
  [ "$bytes" = FAIL ] || goals="$goals bytes $(verdict "$bytes" 16),"
  [ "$ratio" = FAIL ] || goals="$goals first frame $(verdict "$ratio" 1.2)"
  rows="$rows| $n | $events | $fit_med | $fit_p95 | $fit_cpu | $rnd_med | $rnd_p95 | $rnd_cpu | $bytes | $load | $first | $build | $draw | $ratio | ${goals%,} |
"
done

echo "| N kernels | events in lanes | zoom-out median ms | zoom-out p95 ms | zoom-out CPU median / p95 ms | random median ms | random p95 ms | random CPU median / p95 ms | bytes/event | load s | first frame s | of which lanes ms | of which first draw ms | first/load | goals |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s' "$rows"
echo
echo "Goals: at 10^7 kernels, median <= 8 ms and p95 <= 16 ms; <= 16 bytes per event;" \
     "first frame <= 1.2 x load."
exit "$failed"

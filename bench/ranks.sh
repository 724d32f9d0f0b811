#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# ranks.sh [-B BUILDDIR] [N...] - the many-ranks benchmark (issue 18).
#
# Makes jobs of N rank exports (default 8, 64 and 256) from the four real
# ranks of the DDP fixture (tests/data/multirank): rank i is a copy of
# fixture rank i mod 3, its session start moved by a few ms (so that every
# export's clock is shifted), except rank N/2, a copy of fixture rank 3: the
# planted straggler.  For each job, measures, median of BENCH_RUNS runs:
#
#   first frame   the real window (bench/ranks-bench.c, under Xvfb) from
#                 its start to the first frame of the Ranks page showing
#                 every rank
#   full load     the same window until every rank is read, measured and
#                 merged onto one clock, the summaries computed
#   redraw        median and 95th percentile of a full redraw of the
#                 heatmap at the page's size (the window's drawing code)
#   peak RSS      of the window, and of `warpscope-cli ranks` on the same
#                 job, against the sum of the peak RSS of loading each
#                 rank alone (`warpscope-cli info RANK`)
#
# Goals at 256 ranks: first frame <= 3 s, redraw <= 16 ms, memory no more
# than the sum of single-rank loads.  Results on stdout as a Markdown
# table; progress on stderr.  BENCH_DIR, BENCH_RUNS and -B BUILDDIR as in
# bench/run.sh (BUILDDIR must be a GUI build: ranks-bench is built there);
# BENCH_XVFB_SERVERNUM (default 99) names the Xvfb display.

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="8 64 256"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_parse_args 4,27 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(8 64 256)
set -- "${ns[@]}"

cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
runs="${BENCH_RUNS:-3}"
display="${BENCH_XVFB_SERVERNUM:-99}"
case "$runs" in
  '' | *[!0-9]*) echo "$0: BENCH_RUNS must be a positive integer" >&2; exit 2 ;;
esac

bench_find_cli
if [ -n "$build_dir" ]; then
  ninja -C "$build_dir" bench/ranks-bench >&2
  prog="$build_dir/bench/ranks-bench"
  schemas="$build_dir/data"
else
  prog="$src_root/build/bench/ranks-bench"
  schemas="$src_root/build/data"
fi
[ -x "$prog" ] || { echo "$0: $prog is missing: build it with ninja -C BUILDDIR bench/ranks-bench" >&2; exit 2; }
for tool in sqlite3 xz xvfb-run; do
  command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "$0: needs GNU /usr/bin/time for peak RSS" >&2; exit 2; }

# The four fixture ranks, unpacked once.
fixtures="$cache_dir/ranks-fixtures"
mkdir -p "$fixtures"
for r in 0 1 2 3; do
  if [ ! -s "$fixtures/rank$r.sqlite" ]; then
    xz -dc "$src_root/tests/data/multirank/rank$r.sqlite.xz" > "$fixtures/rank$r.sqlite.tmp"
    mv "$fixtures/rank$r.sqlite.tmp" "$fixtures/rank$r.sqlite"
  fi
done

# make_job N - the job of N ranks, kept in $cache_dir/ranks-N.
make_job ()
{
  local n="$1" dir="$cache_dir/ranks-$1" i src straggler
  straggler=$((n / 2))
  if [ -f "$dir/.complete" ]; then
    echo "$dir"
    return
  fi
  echo "Making a job of $n ranks in $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  for ((i = 0; i < n; i++)); do
    if [ "$i" -eq "$straggler" ]; then src=3; else src=$((i % 3)); fi
    cp "$fixtures/rank$src.sqlite" "$dir/rank$i.sqlite"
    # Each export's clock moved by up to 40 ms: the loader must put it back.
    sqlite3 "$dir/rank$i.sqlite" \
      "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + $(( (i * 7919) % 40000 )) * 1000;"
  done
  touch "$dir/.complete"
  echo "$dir"
}

peak_kib ()
{
  /usr/bin/time -f '%M' -o "$cache_dir/.rss" "$@" > /dev/null 2>&1
  cat "$cache_dir/.rss"
}

# The peak RSS of loading each fixture rank alone.
declare -a single
for r in 0 1 2 3; do
  single[r]=$(peak_kib "$cli" info "$fixtures/rank$r.sqlite")
  echo "  one rank alone (fixture rank $r): peak RSS ${single[r]} KiB" >&2
done

echo "| ranks | first frame s (goal <= 3 at 256) | full load s | redraw median / p95 ms (goal <= 16) | window peak RSS MiB | \`ranks\` CLI peak RSS MiB | sum of single-rank loads MiB (goal: not exceeded) | straggler found |"
echo "|---:|---:|---:|---:|---:|---:|---:|---|"
status=0
for n in "$@"; do
  dir=$(make_job "$n")
  sum=0
  for ((i = 0; i < n; i++)); do
    if [ "$i" -eq $((n / 2)) ]; then src=3; else src=$((i % 3)); fi
    sum=$((sum + single[src]))
  done
  firsts=() loads=() medians=() p95s=() rsss=()
  straggler=""
  for ((k = 0; k < runs; k++)); do
    out=$(GSETTINGS_SCHEMA_DIR="$schemas" GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 \
          xvfb-run -n "$display" -s '-screen 0 1920x1080x24' "$prog" "$dir")
    firsts+=("$(echo "$out" | awk '/^first_frame_ms/ { print $2 / 1000 }')")
    loads+=("$(echo "$out" | awk '/^full_load_ms/ { print $2 / 1000 }')")
    medians+=("$(echo "$out" | awk '/^redraw_median_ms/ { print $2 }')")
    p95s+=("$(echo "$out" | awk '/^redraw_p95_ms/ { print $2 }')")
    rsss+=("$(echo "$out" | awk '/^peak_rss_kib/ { print $2 }')")
    straggler=$(echo "$out" | sed -n 's/^straggler //p')
    echo "  $n ranks, run $((k + 1)): $(echo "$out" | tr '\n' ' ')" >&2
  done
  cli_rss=$(peak_kib "$cli" ranks "$dir")
  first=$(median "${firsts[@]}")
  load=$(median "${loads[@]}")
  redraw=$(median "${medians[@]}")
  p95=$(median "${p95s[@]}")
  rss=$(median "${rsss[@]}")
  printf '| %d | %.2f | %.1f | %.2f / %.2f | %.0f | %.0f | %.0f | %s |\n' "$n" "$first" "$load" \
    "$redraw" "$p95" "$(awk "BEGIN { print $rss / 1024 }")" "$(awk "BEGIN { print $cli_rss / 1024 }")" \
    "$(awk "BEGIN { print $sum / 1024 }")" "$straggler"
  case "$straggler" in
    "Straggler: rank $((n / 2)),"*) ;;
    *) echo "  $n ranks: the planted straggler (rank $((n / 2))) was not found" >&2; status=1 ;;
  esac
done
exit "$status"

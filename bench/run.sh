#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run.sh [-B BUILDDIR] [N...] - the load and stats benchmark (issue 2).
#
# For each N (number of kernels; default 100000 1000000 10000000) it makes,
# or reuses from $BENCH_DIR, a synthetic nsys export (bench/gen-export.sh),
# then measures, warm (one unmeasured warm-up run of each command first; the
# page cache is never dropped), the median of $BENCH_RUNS runs of:
#
#   load   warpscope-cli info FILE                 wall time and peak RSS
#   stats  warpscope-cli stats -r cuda_gpu_kern_sum -f csv FILE   wall time
#   sqlite sqlite3 running the same GROUP BY on the same file     wall time
#
# and checks that the loaded counts equal SELECT count(*) and that the stats
# CSV equals the SQL per kernel name.  It ends with a Markdown table and the
# goals (stats/sqlite3 <= 1.5 at N >= 10^6; <= 64 bytes per event beyond the
# base).  See bench/README.md for what each figure means.
#
# Which warpscope-cli:
#   $WARPSCOPE_CLI      used as it is, when set;
#   -B BUILDDIR         BUILDDIR/src/cli/warpscope-cli, brought up to date
#                       with ninja first (set up with meson, -Dgui=disabled,
#                       when BUILDDIR does not exist yet);
#   otherwise           bench/../build/src/cli/warpscope-cli, used as it is.
#
# Environment: BENCH_DIR (cache of generated files, default
# /tmp/warpscope-bench), BENCH_RUNS (measured runs, default 3), BENCH_BASE_N
# (kernels in the base file, default 1000), and those of gen-export.sh
# (BENCH_FIXTURE, NVTX_DIVISOR).
#
# Exit status: 0 when every command ran and every check passed (whether the
# goals are met or not), 1 otherwise, 2 on bad usage.

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="100000 1000000"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_parse_args 4,33 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(100000 1000000 10000000)
set -- "${ns[@]}"

cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
runs="${BENCH_RUNS:-3}"
base_n="${BENCH_BASE_N:-1000}"
case "$runs$base_n" in
  *[!0-9]*) echo "$0: BENCH_RUNS and BENCH_BASE_N must be positive integers" >&2; exit 2 ;;
esac
if [ "$runs" -lt 1 ] || [ "$base_n" -lt 1 ]; then
  usage
fi

command -v sqlite3 >/dev/null 2>&1 || { echo "$0: the sqlite3 command-line tool is needed" >&2; exit 1; }

bench_find_cli
if [ ! -x "$cli" ]; then
  echo "$0: no warpscope-cli at $cli; build one (meson setup build -Dgui=disabled &&" \
       "ninja -C build), or pass -B BUILDDIR, or set WARPSCOPE_CLI" >&2
  exit 1
fi

bench_find_time || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-bench-run.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
log="$work/stderr.log"
: >"$log"
failed=0

# bench_cmd NAME OUTFILE CMD... - one warm-up run (its output kept in
# OUTFILE), then $runs measured runs; sets b_wall and b_rss to the medians.
# Returns 1, after saying so, if any run fails.
bench_cmd ()
{
  local name="$1" outfile="$2" i walls="" rsses=""
  shift 2
  if ! measure "$outfile" "$@"; then
    echo "  FAILED: $name: $*" >&2
    tail -n 5 "$log" | sed 's/^/    /' >&2
    return 1
  fi
  for i in $(seq "$runs"); do
    if ! measure /dev/null "$@"; then
      echo "  FAILED: $name (run $i): $*" >&2
      tail -n 5 "$log" | sed 's/^/    /' >&2
      return 1
    fi
    walls="$walls $m_wall"
    rsses="$rsses $m_rss"
  done
  # shellcheck disable=SC2086
  b_wall=$(median $walls)
  # shellcheck disable=SC2086
  b_rss=$(median $rsses)
  echo "  $name: median $b_wall s (runs:$walls), peak RSS $b_rss KiB" >&2
}

# The sum of the "loaded" counts of `info --format json`, and the kernels and
# model bytes, as "EVENTS KERNELS CUDA_API NVTX BYTES".
loaded_counts ()
{
  awk '
    /"loaded"[ \t]*:[ \t]*\{/ { inside = 1; next }
    inside && /\}/ { inside = 0 }
    inside {
      key = $0; sub(/^[ \t]*"/, "", key); sub(/".*/, "", key)
      val = $0; sub(/.*:[ \t]*/, "", val); sub(/,.*/, "", val)
      v[key] = val + 0
    }
    END {
      ev = v["kernels"] + v["memory_operations"] + v["cuda_api"] + v["nvtx_ranges"] \
           + v["nvtx_marks"] + v["gpu_memory_events"] + v["gpu_metric_samples"]
      printf "%d %d %d %d %d\n", ev, v["kernels"], v["cuda_api"], v["nvtx_ranges"] + v["nvtx_marks"], v["bytes"]
    }' "$1"
}

# The same, counted with SQL: "EVENTS KERNELS CUDA_API NVTX".
sql_counts ()
{
  local uri t expr=""
  uri=$(ro_uri "$1")
  for t in CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET \
           CUPTI_ACTIVITY_KIND_RUNTIME NVTX_EVENTS CUDA_GPU_MEMORY_USAGE_EVENTS GPU_METRICS; do
    if [ "$(sqlite3 "$uri" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '$t';")" = 1 ]; then
      expr="$expr (SELECT count(*) FROM \"$t\") AS \"$t\","
    else
      expr="$expr 0 AS \"$t\","
    fi
  done
  sqlite3 -separator ' ' "$uri" "SELECT
      CUPTI_ACTIVITY_KIND_KERNEL + CUPTI_ACTIVITY_KIND_MEMCPY + CUPTI_ACTIVITY_KIND_MEMSET
        + CUPTI_ACTIVITY_KIND_RUNTIME + NVTX_EVENTS + CUDA_GPU_MEMORY_USAGE_EVENTS + GPU_METRICS,
      CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME, NVTX_EVENTS
    FROM (SELECT ${expr%,});"
}

# The GROUP BY that sqlite3 runs against warpscope-cli stats.
kern_sum_sql="SELECT s.value, count(*), sum(k.end - k.start), avg(k.end - k.start),
  min(k.end - k.start), max(k.end - k.start)
FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName
GROUP BY k.demangledName ORDER BY 3 DESC;"

# check_stats FILE CSV - the kernel summary CSV against SQL, name by name:
# instances, total, min and max exactly, average to its printed precision.
# Prints "NAMES_SQL NAMES_CSV MISMATCHES".
check_stats ()
{
  sqlite3 -separator ' ' :memory: <<SQL
.import --csv "$2" ws
ATTACH '$(ro_uri "$1")' AS x;
WITH q AS (
  SELECT s.value AS name, count(*) AS n, sum(k.end - k.start) AS total,
         avg(k.end - k.start) AS average, min(k.end - k.start) AS lo, max(k.end - k.start) AS hi
  FROM x.CUPTI_ACTIVITY_KIND_KERNEL k JOIN x.StringIds s ON s.id = k.demangledName
  GROUP BY k.demangledName)
SELECT (SELECT count(*) FROM q), (SELECT count(*) FROM ws),
  (SELECT count(*) FROM q LEFT JOIN ws ON ws."Name" = q.name
   WHERE ws."Name" IS NULL
      OR CAST(ws."Instances" AS INTEGER) <> q.n
      OR CAST(ws."Total Time (ns)" AS INTEGER) <> q.total
      OR CAST(ws."Min (ns)" AS INTEGER) <> q.lo
      OR CAST(ws."Max (ns)" AS INTEGER) <> q.hi
      OR abs(CAST(ws."Avg (ns)" AS REAL) - q.average) > 0.051);
SQL
}

# ensure_file N - the cached export with N kernels (generated when missing),
# in $file.
ensure_file ()
{
  file="$cache_dir/nsys-synth-$1-$gen_key.sqlite"
  if [ -f "$file" ]; then
    echo "  reusing $file" >&2
  else
    local t0 t1
    t0=$(date +%s%N)
    "$bench_dir/gen-export.sh" "$1" "$file"
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" -v n="$1" \
      'BEGIN { printf "  generated N = %d in %.1f s\n", n, (b - a) / 1e9 }' >&2
  fi
}

mb ()
{
  awk -v v="$1" -v d="$2" 'BEGIN { printf "%.1f", v * d / 1048576 }'
}

echo "Warpscope benchmark: load, memory and kernel summary against sqlite3"
echo "  cli:     $cli"
echo "  source:  $(git -C "$src_root" describe --always --dirty 2>/dev/null || echo unknown)"
echo "  sqlite3: $(sqlite3 --version | cut -d ' ' -f 1)"
echo "  host:    $(nproc 2>/dev/null || echo '?') CPUs ($(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)), $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null) RAM"
echo "  files:   $cache_dir"
echo "  method:  warm page cache (never dropped): one warm-up run of each command," \
     "then the median of $runs runs; peak RSS from ${time_bin:-python3 wait4 (at least the ~8 MiB of python3 itself)}"
echo

# The base: a file of the same shape with few events (process, GLib,
# SQLite, strings and metadata), whose peak RSS every N is measured against.
echo "Base: N = $base_n" >&2
ensure_file "$base_n"
base_file="$file"
if bench_cmd "load (info --format json)" "$work/base.json" "$cli" info --format json "$base_file"; then
  base_rss="$b_rss"
  read -r base_events _ _ _ _ < <(loaded_counts "$work/base.json")
  echo "  base: $base_events events, peak RSS $base_rss KiB" >&2
else
  failed=1
  base_rss=""
  base_events=0
fi

rows=""
for n in "$@"; do
  echo "N = $n" >&2
  ensure_file "$n"
  size=$(stat -c %s -- "$file" 2>/dev/null || wc -c <"$file")
  events="FAIL" load="FAIL" rss_mb="FAIL" per_event="FAIL" model="FAIL"
  stats="FAIL" sqlite="FAIL" ratio="FAIL"

  # The warm-up run of the load is the JSON one, which gives the counts.
  if bench_cmd "load (info)" "$work/info.txt" "$cli" info "$file" \
     && measure "$work/info.json" "$cli" info --format json "$file"; then
    read -r events kernels cuda_api nvtx model_bytes < <(loaded_counts "$work/info.json")
    load="$b_wall"
    rss_mb=$(mb "$b_rss" 1024)
    model=$(awk -v b="$model_bytes" -v e="$events" 'BEGIN { printf "%.1f", e ? b / e : 0 }')
    if [ -n "$base_rss" ] && [ "$events" -gt "$base_events" ]; then
      per_event=$(awk -v r="$b_rss" -v b="$base_rss" -v e="$events" -v be="$base_events" \
                    'BEGIN { printf "%.1f", (r - b) * 1024 / (e - be) }')
    fi
    read -r sql_events sql_kernels sql_api sql_nvtx < <(sql_counts "$file")
    if [ "$events $kernels $cuda_api $nvtx" = "$sql_events $sql_kernels $sql_api $sql_nvtx" ]; then
      echo "  check: loaded counts equal SELECT count(*): $events events ($kernels kernels," \
           "$cuda_api CUDA API, $nvtx NVTX)" >&2
    else
      echo "  CHECK FAILED: loaded events/kernels/api/nvtx $events/$kernels/$cuda_api/$nvtx," \
           "SELECT count(*) $sql_events/$sql_kernels/$sql_api/$sql_nvtx" >&2
      failed=1
    fi
  else
    failed=1
  fi

  if bench_cmd "stats (warpscope-cli)" "$work/stats.csv" \
       "$cli" stats -r cuda_gpu_kern_sum -f csv "$file"; then
    stats="$b_wall"
    read -r names_sql names_csv mismatches < <(check_stats "$file" "$work/stats.csv")
    if [ "$names_sql" = "$names_csv" ] && [ "$mismatches" = 0 ]; then
      echo "  check: stats CSV equals SQL for all $names_sql kernel names" \
           "(instances, total, avg, min, max)" >&2
    else
      echo "  CHECK FAILED: stats CSV has $names_csv names, SQL $names_sql;" \
           "$mismatches names differ" >&2
      failed=1
    fi
  else
    failed=1
  fi
  if bench_cmd "stats (sqlite3)" "$work/sqlite.txt" \
       sqlite3 "$(ro_uri "$file")" "$kern_sum_sql"; then
    sqlite="$b_wall"
  else
    failed=1
  fi
  if [ "$stats" != FAIL ] && [ "$sqlite" != FAIL ]; then
    ratio=$(awk -v a="$stats" -v b="$sqlite" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
  fi

  # Goals next to the figures: "ok" or "MISSED".
  ratio_cell="$ratio"
  if [ "$ratio" != FAIL ] && [ "$n" -ge 1000000 ]; then
    ratio_cell="$ratio $(awk -v r="$ratio" 'BEGIN { print (r <= 1.5) ? "ok" : "MISSED" }')"
  fi
  per_event_cell="$per_event"
  case "$per_event" in
    FAIL) ;;
    *) per_event_cell="$per_event $(awk -v r="$per_event" 'BEGIN { print (r <= 64) ? "ok" : "MISSED" }')" ;;
  esac
  rows="$rows| $n | $(mb "$size" 1) | $events | $load | $rss_mb | $per_event_cell | $model | $stats | $sqlite | $ratio_cell |
"
done

echo
echo "| N kernels | file MiB | events loaded | load s | peak RSS MiB | B/event beyond base (goal <= 64) | model B/event | stats s | sqlite3 s | stats/sqlite3 (goal <= 1.5 at N >= 10^6) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s' "$rows"
echo
echo "Base: N = $base_n ($base_events events), peak RSS $( [ -n "$base_rss" ] && mb "$base_rss" 1024 || echo FAIL) MiB."
echo "Times are wall seconds, median of $runs warm runs after one warm-up run of each" \
     "command (page cache not dropped)."
echo "Goals: stats/sqlite3 <= 1.5 at N = 10^6 and 10^7; <= 64 bytes per loaded event beyond the base."
exit "$failed"

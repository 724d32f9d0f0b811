#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# kineto.sh [-B BUILDDIR] [SIZE_MB...] - the PyTorch profiler trace load
# benchmark (issue 33).
#
# For each SIZE_MB (megabytes of 10^6 bytes; default 100 1000) it makes, or
# reuses from $BENCH_DIR, a synthetic Kineto Chrome trace of about that size
# (bench/gen-kineto.py: the real training trace's three steps repeated), then
# measures under GNU time (peak RSS: %M; wall time: around it), warm (the page cache is never dropped; the
# file is read once, unmeasured, first):
#
#   load       warpscope-cli info TRACE       wall and CPU time, peak RSS
#   cat        cat TRACE > /dev/null          wall time: the I/O floor
#   json.load  python3: json.load(TRACE)      wall and CPU time, peak RSS: what a
#                                             DOM of the file costs
#
# the median of BENCH_RUNS runs (default 3) for files under 500 MB and of
# BENCH_RUNS_LARGE runs (default 1) from 500 MB up.  It prints the load time,
# MB/s, peak RSS, RSS against the JSON's size, the run model's own bytes
# ("loaded"."bytes" of info --format json), and the load's time and RSS
# against cat and json.load measured in the same run.  It checks that the
# counts info loads (kernels; all events but the metadata) equal the
# generator's.
#
# Which warpscope-cli: $WARPSCOPE_CLI, -B BUILDDIR or build/, as for
# bench/run.sh.  Environment: BENCH_DIR (cache of generated traces, default
# /tmp/warpscope-bench), BENCH_RUNS, BENCH_RUNS_LARGE, BENCH_KINETO_SEED (the
# real trace the synthetic ones are made from, default
# tests/data/kineto/captures/lm_train_rank0.json.gz).  Needs python3 and
# GNU /usr/bin/time.  Results on stdout (a Markdown table), progress on
# stderr; exit status 1 when a command failed or a check did not pass.

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="100 1000"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
usage ()
{
  echo "usage: $0 [-B BUILDDIR] [SIZE_MB...]   (SIZE_MB = megabytes of JSON, e.g. $usage_example)" >&2
  exit 2
}
bench_parse_args 4,33 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(100 1000)
set -- "${ns[@]}"

cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
runs="${BENCH_RUNS:-3}"
runs_large="${BENCH_RUNS_LARGE:-1}"
seed="${BENCH_KINETO_SEED:-$src_root/tests/data/kineto/captures/lm_train_rank0.json.gz}"
case "$runs$runs_large" in
  '' | *[!0-9]*) echo "$0: BENCH_RUNS and BENCH_RUNS_LARGE must be positive integers" >&2; exit 2 ;;
esac
if [ "$runs" -lt 1 ] || [ "$runs_large" -lt 1 ]; then
  usage
fi

command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 1; }
if ! { [ -x /usr/bin/time ] && /usr/bin/time -f '%e %M' -o /dev/null true 2>/dev/null; }; then
  echo "$0: needs GNU /usr/bin/time for peak RSS" >&2
  exit 1
fi
[ -f "$seed" ] || { echo "$0: no seed trace at $seed" >&2; exit 1; }

bench_find_cli
if [ ! -x "$cli" ]; then
  echo "$0: no warpscope-cli at $cli; build one (meson setup build -Dgui=disabled &&" \
       "ninja -C build), or pass -B BUILDDIR, or set WARPSCOPE_CLI" >&2
  exit 1
fi

# The cached traces are kineto-synth-SIZE-KEY.json, KEY a checksum of the
# generator (its comments aside) and of the seed.
kineto_key=$( { grep -v '^[[:space:]]*#' "$bench_dir/gen-kineto.py"; cat "$seed"; } | cksum | cut -d ' ' -f 1)

mkdir -p "$cache_dir"
work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-bench-kineto.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
log="$work/stderr.log"
: >"$log"
failed=0

# measure OUTFILE CMD... - CMD under GNU time (%e %M), stdout to OUTFILE,
# stderr to the log; sets m_wall (s), m_rss (KiB, GNU time's %M) and m_cpu
# (s, user + system: %U + %S);
# returns CMD's exit status.
measure ()
{
  local outfile="$1" status=0 t0 t1
  shift
  t0=$(date +%s%N)
  /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" >"$outfile" 2>>"$log" || status=$?
  t1=$(date +%s%N)
  read -r _ m_rss m_user m_sys < <(tail -n 1 "$work/time")
  m_cpu=$(awk -v u="$m_user" -v s="$m_sys" 'BEGIN { printf "%.2f", u + s }')
  # %e counts in steps of 10 ms: the wall time is taken around it instead
  # (which adds the start of GNU time itself, about a millisecond).
  m_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  return "$status"
}

# bench_cmd NAME RUNS CMD... - RUNS measured runs (stdout dropped); sets
# b_wall, b_cpu and b_rss to the medians.  Returns 1, after saying so, if one fails.
bench_cmd ()
{
  local name="$1" n="$2" i walls="" rsses="" cpus=""
  shift 2
  for i in $(seq "$n"); do
    if ! measure /dev/null "$@"; then
      echo "  FAILED: $name (run $i): $*" >&2
      tail -n 5 "$log" | sed 's/^/    /' >&2
      return 1
    fi
    walls="$walls $m_wall"
    rsses="$rsses $m_rss"
    cpus="$cpus $m_cpu"
  done
  # shellcheck disable=SC2086
  b_wall=$(median $walls)
  # shellcheck disable=SC2086
  b_rss=$(median $rsses)
  # shellcheck disable=SC2086
  b_cpu=$(median $cpus)
  echo "  $name: median $b_wall s (runs:$walls), CPU $b_cpu s (runs:$cpus)," \
       "peak RSS $b_rss KiB (runs:$rsses)" >&2
}

# ensure_trace SIZE - the cached trace of about SIZE MB (made when missing),
# in $file; its counts in $file.counts.
ensure_trace ()
{
  file="$cache_dir/kineto-synth-$1-$kineto_key.json"
  if [ -f "$file" ] && [ -f "$file.counts" ]; then
    echo "  reusing $file" >&2
  else
    local t0 t1
    t0=$(date +%s%N)
    python3 "$bench_dir/gen-kineto.py" "$1" "$file" "$seed"
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" -v n="$1" \
      'BEGIN { printf "  generated %d MB in %.1f s\n", n, (b - a) / 1e9 }' >&2
  fi
}

# What info --format json loaded: "KERNELS ROWS MODEL_BYTES", ROWS the sum
# of the "rows" of its "events" (every event it read; "?" where missing).
info_counts ()
{
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d.get("events") or {}
rows = sum(v.get("rows", 0) for v in ev.values()) if ev else "?"
loaded = d.get("loaded") or {}
print(loaded.get("kernels", "?"), rows, loaded.get("bytes", "?"))' "$1"
}

# From the generator's counts: "KERNELS EVENTS_BUT_METADATA STEPS".
gen_counts ()
{
  awk '$1 == "cat" && $2 == "kernel" { k = $3 } $1 == "cat" && $2 == "ph:M" { m = $3 }
       $1 == "events" { e = $2 } $1 == "steps" { s = $2 }
       END { printf "%d %d %d\n", k, e - m, s }' "$1"
}

fmt ()  # fmt AWK-EXPR VAR=VALUE... - prints AWK-EXPR's value
{
  local expr="$1"
  shift
  local args=() a
  for a in "$@"; do args+=(-v "$a"); done
  awk "${args[@]}" "BEGIN { $expr }"
}

ratio ()  # ratio A B - A / B, or FAIL
{
  case "$1$2" in
    *FAIL*) echo FAIL ;;
    *) fmt 'printf "%.2f", (b > 0) ? a / b : 0' a="$1" b="$2" ;;
  esac
}

python_load='import json, sys
with open(sys.argv[1], "rb") as f:
    d = json.load(f)'

echo "Warpscope benchmark: loading PyTorch profiler (Kineto) traces against cat and Python's json.load"
echo "  cli:     $cli"
echo "  source:  $(git -C "$src_root" describe --always --dirty 2>/dev/null || echo unknown)"
echo "  cli's binary: built $(date -u -r "$cli" '+%F %T UTC' 2>/dev/null || echo '?'), sha256 $(sha256sum -- "$cli" | cut -c 1-12)," \
     "in a tree at $(git -C "$(dirname -- "$cli")" describe --always --dirty 2>/dev/null || echo unknown) now"
echo "  python3: $(python3 -c 'import sys; print(sys.version.split()[0])')"
echo "  host:    $(nproc 2>/dev/null || echo '?') CPUs ($(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)), $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null) RAM, load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "  traces:  $cache_dir (seed $(basename -- "$seed"))"
echo "  method:  warm page cache (never dropped; one unmeasured cat first), peak RSS from GNU time %M;" \
     "median of $runs runs under 500 MB, of $runs_large from 500 MB up"
echo

rows=""
notes=""
for size_mb in "$@"; do
  echo "SIZE = $size_mb MB" >&2
  ensure_trace "$size_mb"
  bytes=$(stat -c %s -- "$file")
  read -r gen_kernels gen_events gen_steps < <(gen_counts "$file.counts")
  n="$runs"
  [ "$bytes" -lt 500000000 ] || n="$runs_large"
  json_mb=$(fmt 'printf "%.1f", b / 1e6' b="$bytes")

  # The file once into the page cache, then the I/O floor.
  cat -- "$file" >/dev/null
  cat_s="FAIL"
  if bench_cmd "cat" "$n" cat -- "$file"; then cat_s="$b_wall"; else failed=1; fi

  # The load; one run of info --format json first, for the counts.
  load="FAIL" load_cpu="FAIL" rss="FAIL" kernels="?" loaded_rows="?" model="?"
  if measure "$work/info.json" "$cli" info --format json "$file"; then
    echo "  info --format json: $m_wall s, peak RSS $m_rss KiB (unmeasured)" >&2
    read -r kernels loaded_rows model < <(info_counts "$work/info.json")
    if [ "$kernels" = "$gen_kernels" ] && [ "$loaded_rows" = "$gen_events" ]; then
      echo "  check: info loaded $kernels kernels and $loaded_rows events, as generated" >&2
    else
      echo "  CHECK FAILED: info loaded $kernels kernels and $loaded_rows events;" \
           "the generator wrote $gen_kernels kernels and $gen_events events (metadata aside)" >&2
      notes="$notes- $size_mb MB: info loaded $kernels kernels / $loaded_rows events, generated $gen_kernels / $gen_events
"
      failed=1
    fi
    if bench_cmd "load (info)" "$n" "$cli" info "$file"; then
      load="$b_wall" load_cpu="$b_cpu" rss="$b_rss"
    else
      failed=1
    fi
  else
    echo "  FAILED: info --format json $file" >&2
    tail -n 5 "$log" | sed 's/^/    /' >&2
    notes="$notes- $size_mb MB: warpscope-cli info failed: $(tail -n 1 "$log")
"
    failed=1
  fi

  py_s="FAIL" py_cpu="FAIL" py_rss="FAIL"
  if bench_cmd "json.load (python3)" "$n" python3 -c "$python_load" "$file"; then
    py_s="$b_wall" py_cpu="$b_cpu" py_rss="$b_rss"
  else
    failed=1
  fi

  if [ "$load" != FAIL ]; then
    mbs=$(fmt 'printf "%.0f", (t > 0) ? b / 1e6 / t : 0' b="$bytes" t="$load")
    rss_mb=$(fmt 'printf "%.0f", r * 1024 / 1e6' r="$rss")
    rss_ratio=$(fmt 'printf "%.2f", r * 1024 / b' r="$rss" b="$bytes")
    per_event=$(fmt 'printf "%.0f", e ? r * 1024 / e : 0' r="$rss" e="$gen_events")
    case "$model" in
      '' | *[!0-9]*) model_mb="?" ;;
      *) model_mb=$(fmt 'printf "%.1f", m / 1e6' m="$model") ;;
    esac
  else
    mbs="FAIL" rss_mb="FAIL" rss_ratio="FAIL" per_event="FAIL" model_mb="?"
  fi
  cat_cell="$cat_s"
  [ "$cat_s" = FAIL ] || cat_cell="$cat_s ($(fmt 'printf "%.0f", (t > 0) ? b / 1e6 / t : 0' b="$bytes" t="$cat_s") MB/s)"
  py_rss_mb="$py_rss"
  [ "$py_rss" = FAIL ] || py_rss_mb=$(fmt 'printf "%.0f", r * 1024 / 1e6' r="$py_rss")
  rows="$rows| $json_mb | $gen_events | $kernels | $gen_steps | $load | $load_cpu | $mbs | $rss_mb | $rss_ratio | $per_event | $model_mb | $cat_cell | $py_s | $py_cpu | $py_rss_mb | $(ratio "$load" "$py_s") | $(ratio "$load_cpu" "$py_cpu") | $(ratio "$rss" "$py_rss") | $(ratio "$load" "$cat_s") |
"
done

echo "| JSON MB | events | kernels loaded | steps | load s | load CPU s | MB/s | peak RSS MB | RSS / JSON | RSS B/event | model MB | cat s | json.load s | json.load CPU s | json.load RSS MB | load / json.load | CPU / json.load CPU | RSS / json.load RSS | load / cat |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s' "$rows"
echo
echo "MB = 10^6 bytes. events: the trace's events but the metadata (ph \"M\"), as generated;" \
     "kernels loaded: \"loaded\".\"kernels\" of info --format json; model MB: its \"loaded\".\"bytes\"."
echo "load: warpscope-cli info TRACE; MB/s: JSON MB / load s; peak RSS from GNU time's %M; RSS / JSON: peak RSS / file size;" \
     "RSS B/event: peak RSS / events; CPU s: user + system (%U + %S), which other processes on a shared machine do not inflate."
echo "Times are wall seconds (measured around GNU time, whose %e counts in 10 ms steps), the median of $runs warm runs under 500 MB," \
     "$runs_large from 500 MB up, page cache warm."
if [ -n "$notes" ]; then
  echo
  echo "Problems:"
  printf '%s' "$notes"
fi
exit "$failed"

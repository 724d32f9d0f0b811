#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# reports.sh [-B BUILDDIR] [N...] - the first frame, the full load and each
# stats report against one sqlite3 scan of the same file, and, with a
# baseline binary, before and after a change.
#
# For synthetic nsys exports of N kernels (default 10^6, 3*10^6 and 10^7;
# made, or reused from $BENCH_DIR, as bench/run.sh does), measures warm (one
# unmeasured warm-up run of each command first; the page cache is never
# dropped) the median of $BENCH_RUNS runs, the commands alternated run
# after run:
#
#   scan         sqlite3 'file:F?mode=ro&immutable=1'
#                  'SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL'
#   first frame  warpscope-cli render --view overview --size 1920x1080 -o OUT.png F
#                (a binary that refuses the overview view gets "—")
#   full load    warpscope-cli render --view timeline --size 1920x1080 -o OUT.png F
#   reports      warpscope-cli stats --report R -f csv F, for each report R:
#                wall time and peak RSS, against cuda_gpu_kern_sum's
#
# With BASELINE_CLI=/path/to/old/warpscope-cli, every figure is measured
# for both binaries in the same run (before, after, before, after, ...) and
# printed side by side with the ratio after/before.
#
# Checks, outside the timed runs (CHECK FAILED, exit status 1): each
# overview PNG exists, is a PNG and is not empty; with BASELINE_CLI, the
# stats CSV of every report equals the baseline's byte for byte.
#
# Markdown tables on stdout, progress on stderr.  Environment: BENCH_DIR,
# BENCH_RUNS (default 3), WARPSCOPE_CLI and -B BUILDDIR as for run.sh;
# BASELINE_CLI; BENCH_REPORTS (comma-separated, default all eight).
#
# Exit status: 0 when every command ran and every check passed, 1
# otherwise, 2 on bad usage.

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="1000000 3000000"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_parse_args 4,35 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(1000000 3000000 10000000)
set -- "${ns[@]}"

cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
runs="${BENCH_RUNS:-3}"
case "$runs" in
  '' | *[!0-9]*) echo "$0: BENCH_RUNS must be a positive integer" >&2; exit 2 ;;
esac
[ "$runs" -ge 1 ] || usage
size=1920x1080
IFS=, read -r -a reports <<<"${BENCH_REPORTS:-cuda_gpu_kern_sum,nvtx_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,osrt_sum,nvtx_gpu_proj_sum,nvtx_kern_sum}"
[ "${#reports[@]}" -gt 0 ] || { echo "$0: BENCH_REPORTS is empty" >&2; exit 2; }
ref_report=cuda_gpu_kern_sum
scan_sql='SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL'

command -v sqlite3 >/dev/null 2>&1 || { echo "$0: the sqlite3 command-line tool is needed" >&2; exit 1; }

bench_find_cli
if [ ! -x "$cli" ]; then
  echo "$0: no warpscope-cli at $cli; build one, pass -B BUILDDIR, or set WARPSCOPE_CLI" >&2
  exit 1
fi
# The binaries by label: "after" is the one measured, "before" the baseline.
declare -A bin
bin[after]="$cli"
labels=(after)
if [ -n "${BASELINE_CLI:-}" ]; then
  if [ ! -x "$BASELINE_CLI" ]; then
    echo "$0: BASELINE_CLI=$BASELINE_CLI is not an executable" >&2
    exit 1
  fi
  bin[before]="$BASELINE_CLI"
  labels=(before after)
fi

bench_find_time || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-bench-reports.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
main_log="$work/stderr.log"
log="$main_log"
: >"$log"
failed=0

# attempt OUTFILE CMD... - measure, with CMD's standard error also kept
# alone in $work/last.err.
attempt ()
{
  local status=0
  log="$work/last.err"
  : >"$log"
  measure "$@" || status=$?
  cat "$log" >>"$main_log"
  log="$main_log"
  return "$status"
}

# say_failed WHAT STATUS - the failure of a command, with its last words.
say_failed ()
{
  echo "  FAILED ($2): $1" >&2
  tail -n 3 "$work/last.err" | sed 's/^/    /' >&2
  failed=1
}

# ensure_file N - the cached export of N kernels in $file, made when missing.
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

is_num ()
{
  [[ "$1" =~ ^[0-9][0-9.eE+-]*$ ]]
}

# fmt DIGITS VALUE - VALUE with DIGITS decimals; words ("—", FAIL) as they are.
fmt ()
{
  if is_num "$2"; then awk -v d="$1" -v v="$2" 'BEGIN { printf "%.*f", d, v }'; else printf '%s' "$2"; fi
}

# ratio A B - A / B to two decimals, "—" when either is not a number.
ratio ()
{
  if is_num "$1" && is_num "$2"; then
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "—" }'
  else
    printf '—'
  fi
}

mib ()
{
  if is_num "$1"; then awk -v v="$1" 'BEGIN { printf "%.1f", v / 1024 }'; else printf '%s' "$1"; fi
}

# med "WALLS" - the median of a list of numbers, "—" when it is empty.
med ()
{
  # shellcheck disable=SC2086
  if [ -n "${1// /}" ]; then median $1; else printf '—'; fi
}

# is_png FILE - FILE exists, is not empty and starts with the PNG signature.
is_png ()
{
  [ -s "$1" ] && [ "$(head -c 4 -- "$1" | tail -c 3)" = PNG ]
}

echo "Warpscope benchmark: first frame, full load and stats reports against one sqlite3 scan"
echo "  cli:      $cli"
[ -z "${BASELINE_CLI:-}" ] || echo "  baseline: $BASELINE_CLI"
echo "  source:   $(git -C "$src_root" describe --always --dirty 2>/dev/null || echo unknown)"
echo "  sqlite3:  $(sqlite3 --version | cut -d ' ' -f 1)"
echo "  host:     $(nproc 2>/dev/null || echo '?') CPUs ($(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)), load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null)"
echo "  files:    $cache_dir"
echo "  method:   warm page cache (never dropped): one warm-up run of each command, then the median of" \
     "$runs runs, the commands alternated run after run${BASELINE_CLI:+ (before and after too)};" \
     "peak RSS from ${time_bin:-python3 wait4 (at least the ~8 MiB of python3 itself)}"
echo

rows1="" rows2=""
for n in "$@"; do
  echo "N = $n" >&2
  ensure_file "$n"
  uri=$(ro_uri "$file")

  # 1. The scan, the first frame and the full load.  Warm-ups first: they
  # also find out which binaries draw the overview, and keep the PNGs.
  declare -A ov_ok=() tl_ok=() w_ov=() w_tl=()
  w_scan=""
  scan_ok=1
  attempt "$work/scan.txt" sqlite3 "$uri" "$scan_sql" || { say_failed "sqlite3 scan" $?; scan_ok=0; }
  for b in "${labels[@]}"; do
    rm -f -- "$work/overview-$b.png" "$work/timeline-$b.png"
    status=0
    attempt /dev/null "${bin[$b]}" render --view overview --size "$size" -o "$work/overview-$b.png" "$file" || status=$?
    if [ "$status" = 0 ]; then
      ov_ok[$b]=1
      if is_png "$work/overview-$b.png"; then
        echo "  check ($b): the overview PNG is a PNG of $(stat -c %s -- "$work/overview-$b.png") bytes" >&2
      else
        echo "  CHECK FAILED ($b): render --view overview left no PNG, or an empty one" >&2
        failed=1
      fi
    elif [ "$status" = 2 ] && grep -qi overview "$work/last.err"; then
      ov_ok[$b]=0
      echo "  $b: no overview view ($(head -n 1 "$work/last.err")): first frame —, its PNG not checked" >&2
    else
      ov_ok[$b]=0
      say_failed "$b: render --view overview" "$status"
    fi
    status=0
    attempt /dev/null "${bin[$b]}" render --view timeline --size "$size" -o "$work/timeline-$b.png" "$file" || status=$?
    if [ "$status" = 0 ] && is_png "$work/timeline-$b.png"; then
      tl_ok[$b]=1
    else
      tl_ok[$b]=0
      say_failed "$b: render --view timeline" "$status"
    fi
    w_ov[$b]="" w_tl[$b]=""
  done
  for i in $(seq "$runs"); do
    if [ "$scan_ok" = 1 ]; then
      if attempt /dev/null sqlite3 "$uri" "$scan_sql"; then w_scan="$w_scan $m_wall"; else say_failed "sqlite3 scan (run $i)" $?; fi
    fi
    for b in "${labels[@]}"; do
      [ "${ov_ok[$b]}" = 1 ] || continue
      if attempt /dev/null "${bin[$b]}" render --view overview --size "$size" -o "$work/run.png" "$file"; then
        w_ov[$b]="${w_ov[$b]} $m_wall"
      else
        say_failed "$b: render --view overview (run $i)" $?
      fi
    done
    for b in "${labels[@]}"; do
      [ "${tl_ok[$b]}" = 1 ] || continue
      if attempt /dev/null "${bin[$b]}" render --view timeline --size "$size" -o "$work/run.png" "$file"; then
        w_tl[$b]="${w_tl[$b]} $m_wall"
      else
        say_failed "$b: render --view timeline (run $i)" $?
      fi
    done
  done
  scan=$(med "$w_scan")
  echo "  scan: $scan s (runs:$w_scan)" >&2
  row="| $n | $(fmt 3 "$scan") |"
  declare -A first=() full=()
  for b in "${labels[@]}"; do
    first[$b]=$(med "${w_ov[$b]}")
    full[$b]=$(med "${w_tl[$b]}")
    echo "  $b: first frame ${first[$b]} s (runs:${w_ov[$b]}), full load ${full[$b]} s (runs:${w_tl[$b]})" >&2
  done
  if [ "${#labels[@]}" = 2 ]; then
    row="$row $(fmt 3 "${first[before]}") | $(fmt 3 "${first[after]}") | $(ratio "${first[after]}" "${first[before]}") |"
    row="$row $(ratio "${first[before]}" "$scan") | $(ratio "${first[after]}" "$scan") |"
    row="$row $(fmt 3 "${full[before]}") | $(fmt 3 "${full[after]}") | $(ratio "${full[after]}" "${full[before]}") |"
    row="$row $(ratio "${full[before]}" "$scan") | $(ratio "${full[after]}" "$scan") |"
  else
    row="$row $(fmt 3 "${first[after]}") | $(ratio "${first[after]}" "$scan") |"
    row="$row $(fmt 3 "${full[after]}") | $(ratio "${full[after]}" "$scan") |"
  fi
  rows1="$rows1$row
"

  # 2. Each stats report: the warm-ups keep the CSVs for the check.
  declare -A st_ok=() w_st=() r_st=()
  for r in "${reports[@]}"; do
    for b in "${labels[@]}"; do
      st_ok[$b,$r]=0 w_st[$b,$r]="" r_st[$b,$r]=""
      if attempt "$work/stats-$b-$r.csv" "${bin[$b]}" stats --report "$r" -f csv "$file"; then
        st_ok[$b,$r]=1
      else
        say_failed "$b: stats --report $r" $?
      fi
    done
    if [ "${#labels[@]}" = 2 ] && [ "${st_ok[before,$r]}" = 1 ] && [ "${st_ok[after,$r]}" = 1 ]; then
      if cmp -s -- "$work/stats-before-$r.csv" "$work/stats-after-$r.csv"; then
        if [ -s "$work/stats-after-$r.csv" ]; then
          echo "  check: $r CSV equals the baseline's byte for byte ($(wc -l <"$work/stats-after-$r.csv") lines)" >&2
        else
          echo "  check: $r CSV empty for both (SKIPPED: $(grep -m 1 -o 'does not contain.*' "$work/last.err" || echo '?'))" >&2
        fi
      else
        echo "  CHECK FAILED: $r CSV differs from the baseline's:" \
             "$(cmp -- "$work/stats-before-$r.csv" "$work/stats-after-$r.csv" 2>&1 | head -n 1 | sed "s|$work/||g")" >&2
        failed=1
      fi
    fi
  done
  for i in $(seq "$runs"); do
    for r in "${reports[@]}"; do
      for b in "${labels[@]}"; do
        [ "${st_ok[$b,$r]}" = 1 ] || continue
        if attempt /dev/null "${bin[$b]}" stats --report "$r" -f csv "$file"; then
          w_st[$b,$r]="${w_st[$b,$r]} $m_wall"
          r_st[$b,$r]="${r_st[$b,$r]} $m_rss"
        else
          say_failed "$b: stats --report $r (run $i)" $?
        fi
      done
    done
  done
  declare -A s=() rss=()
  for r in "${reports[@]}"; do
    for b in "${labels[@]}"; do
      if [ "${st_ok[$b,$r]}" = 1 ]; then
        s[$b,$r]=$(med "${w_st[$b,$r]}")
        rss[$b,$r]=$(med "${r_st[$b,$r]}")
      else
        s[$b,$r]=FAIL rss[$b,$r]=FAIL
      fi
      echo "  $b: $r ${s[$b,$r]} s (runs:${w_st[$b,$r]}), peak RSS ${rss[$b,$r]} KiB (runs:${r_st[$b,$r]})" >&2
    done
  done
  for r in "${reports[@]}"; do
    row="| $n | $r |"
    if [ "${#labels[@]}" = 2 ]; then
      row="$row $(fmt 3 "${s[before,$r]}") | $(fmt 3 "${s[after,$r]}") | $(ratio "${s[after,$r]}" "${s[before,$r]}") |"
      for b in before after; do
        row="$row $(ratio "${s[$b,$r]}" "${s[$b,$ref_report]:-—}") |"
      done
      row="$row $(mib "${rss[before,$r]}") | $(mib "${rss[after,$r]}") | $(ratio "${rss[after,$r]}" "${rss[before,$r]}") |"
      for b in before after; do
        row="$row $(ratio "${rss[$b,$r]}" "${rss[$b,$ref_report]:-—}") |"
      done
    else
      row="$row $(fmt 3 "${s[after,$r]}") | $(ratio "${s[after,$r]}" "${s[after,$ref_report]:-—}") |"
      row="$row $(mib "${rss[after,$r]}") | $(ratio "${rss[after,$r]}" "${rss[after,$ref_report]:-—}") |"
    fi
    rows2="$rows2$row
"
  done
done

echo "### First frame and full load against one sqlite3 scan"
echo
if [ "${#labels[@]}" = 2 ]; then
  echo "| N kernels | scan s | first frame s before | after | after/before | first/scan before | after | full load s before | after | after/before | full/scan before | after |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| N kernels | scan s | first frame s | first/scan | full load s | full/scan |"
  echo "|---:|---:|---:|---:|---:|---:|"
fi
printf '%s' "$rows1"
echo
echo "### Stats reports against cuda_gpu_kern_sum"
echo
if [ "${#labels[@]}" = 2 ]; then
  echo "| N kernels | report | s before | after | after/before | ×kern_sum before | after | peak MiB before | after | after/before | peak/kern_sum's before | after |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| N kernels | report | s | ×kern_sum | peak MiB | peak/kern_sum's |"
  echo "|---:|---|---:|---:|---:|---:|"
fi
printf '%s' "$rows2"
echo
echo "Times are wall seconds, the median of $runs warm runs after one warm-up run of each command" \
     "(page cache not dropped); first frame: render --view overview, full load: render --view timeline," \
     "both $size; \"—\": the binary has no overview view. Peak RSS: MiB = 2^20 bytes."
exit "$failed"

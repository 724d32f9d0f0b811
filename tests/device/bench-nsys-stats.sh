#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# warpscope-cli stats against the real nsys stats, report by report, on
# synthetic exports of N kernels, on a GPU machine that has nsys but no
# network and no apt.  Run there from the repository root, with the bundle
# of bundle-cli.sh:
#
#   tests/device/bench-nsys-stats.sh BUNDLE NSYS [N|EXPORT.sqlite...]
#                                          (default N: 300000 1500000)
#
# For each N it generates (or reuses from $BENCH_DIR, default
# /tmp/warpscope-bench) an export with bench/gen-export.sh, through the
# bundle's sqlite3, then for each report R:
#
#   nsys  NSYS stats [--quiet] --report R --format csv --output - F
#         (NSYS with LD_LIBRARY_PATH=BUNDLE/nsys-lib, for itself alone)
#   ws    BUNDLE/warpscope-cli stats --report R -f csv F
#
# one warm-up run of each, then the median of $BENCH_RUNS (default 5) runs,
# nsys and ws alternated, wall time and peak RSS (GNU time's %M, else
# python3's wait4).  Check, outside the timed runs: ws's CSV equals, byte
# for byte, the CSV file that `nsys stats --output PREFIX` writes (or both
# skip the report); what `--output -` prints around the CSV is kept and
# compared too.  Prints a Markdown table per N: report, nsys s, ws s,
# speed-up, nsys MiB, ws MiB, CSV.
#
# Environment: OUT (everything this script writes but the exports goes to
# $OUT/bench-nsys-stats; without OUT, to a new folder in /tmp), BENCH_DIR,
# BENCH_RUNS, BENCH_REPORTS (comma-separated; default the eight reports of
# warpscope-cli stats), BENCH_TIMEOUT (seconds one command may take before
# it is stopped and its report marked TIMEOUT, default 300), BENCH_FIXTURE
# (default the tree's probe export, else BUNDLE/fixture's copy), WS_BASELINE
# (another warpscope-cli, an older one in the same bundle: timed in the same
# alternation, in two more columns, for before/after figures).
#
# Exit status: 0 when every command ran and every check passed, 1
# otherwise (or when a tool is missing: one line says which), 2 on bad usage.

set -uo pipefail

me=$(basename -- "$0")
usage ()
{
  echo "usage: $0 BUNDLE NSYS [N...]   (N = kernels, default 300000 1500000)" >&2
  exit 2
}
die ()
{
  echo "$me: $*" >&2
  exit 1
}

case "${1:-}" in -h | --help) sed -n '4,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ "$#" -ge 2 ] || usage
[ -d "$1" ] || die "no bundle folder $1 (make one here with tests/device/bundle-cli.sh BUNDLE and carry it)"
bundle=$(cd -- "$1" && pwd)
nsys_bin="$2"
shift 2
# An argument that names an existing .sqlite file is that export (a real
# capture), timed as it is.
for n in "$@"; do
  case "$n" in *.sqlite) [ -f "$n" ] || die "no export $n"; continue ;; esac
  case "$n" in '' | *[!0-9]*) usage ;; esac
  [ "$n" -ge 1 ] || usage
done
[ "$#" -gt 0 ] || set -- 300000 1500000
runs="${BENCH_RUNS:-5}"
case "$runs" in '' | *[!0-9]* | 0) echo "$me: BENCH_RUNS must be a positive integer" >&2; exit 2 ;; esac
limit="${BENCH_TIMEOUT:-300}"
case "$limit" in '' | *[!0-9]* | 0) echo "$me: BENCH_TIMEOUT must be a positive number of seconds" >&2; exit 2 ;; esac
IFS=, read -r -a reports <<<"${BENCH_REPORTS:-cuda_gpu_kern_sum,nvtx_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,osrt_sum,nvtx_gpu_proj_sum,nvtx_kern_sum}"

src_root=$(cd -- "$(dirname -- "$0")/../.." && pwd)
bench_dir="$src_root/bench"
cli="$bundle/warpscope-cli"
[ -x "$cli" ] || die "no $cli: make the bundle with tests/device/bundle-cli.sh"

# sqlite3 for gen-export.sh: the bundle's, else the machine's.
[ -x "$bundle/bin/sqlite3" ] && PATH="$bundle/bin:$PATH"
command -v sqlite3 >/dev/null 2>&1 ||
  die "no sqlite3 command: make the bundle again with tests/device/bundle-cli.sh (it carries one in BUNDLE/bin)"
sqlite_version=$(sqlite3 --version 2>&1) || die "sqlite3 ($(command -v sqlite3)) does not run: $(printf '%s\n' "$sqlite_version" | head -n 1)"

# The export gen-export.sh replicates: the tree's, else the bundle's copy
# (the fixtures may be left out of the tree that travels).
if [ -n "${BENCH_FIXTURE:-}" ]; then
  [ -r "$BENCH_FIXTURE" ] || die "cannot read BENCH_FIXTURE=$BENCH_FIXTURE"
  BENCH_FIXTURE=$(realpath -- "$BENCH_FIXTURE")
elif [ ! -r "$src_root/tests/data/nsys/v2025.3_h100_probe.sqlite" ]; then
  [ -r "$bundle/fixture/v2025.3_h100_probe.sqlite" ] ||
    die "no fixture: neither tests/data/nsys/v2025.3_h100_probe.sqlite nor $bundle/fixture/ (bundle-cli.sh copies it); or set BENCH_FIXTURE"
  export BENCH_FIXTURE="$bundle/fixture/v2025.3_h100_probe.sqlite"
fi

usage_example="300000 1500000"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_find_time || exit 1
command -v timeout >/dev/null 2>&1 || die "no timeout command (coreutils)"

if [ -n "${OUT:-}" ]; then
  res="$OUT/bench-nsys-stats"
  mkdir -p -- "$res" || die "cannot make $res"
else
  res=$(mktemp -d /tmp/bench-nsys-stats.XXXXXX) || die "cannot make a folder in /tmp"
fi
res=$(cd -- "$res" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-nsys-stats-work.XXXXXX") || die "cannot make a folder in ${TMPDIR:-/tmp}"
trap 'rm -rf -- "$work"' EXIT
log="$res/stderr.log"
: >"$log"
progress="$res/progress.log"
: >"$progress"
results="$res/results.md"
: >"$results"
cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
mkdir -p -- "$cache_dir" || die "cannot make BENCH_DIR=$cache_dir"
cache_dir=$(cd -- "$cache_dir" && pwd)

# say TEXT... - progress, on stderr and in progress.log.
say ()
{
  printf '%s\n' "$*" | tee -a "$progress" >&2
}
# put TEXT... - results, on stdout and in results.md.
put ()
{
  printf '%s\n' "$*" | tee -a "$results"
}

# nsys with its own libraries, for itself alone (as capture-*.sh do).
[ -e "$nsys_bin" ] || die "NSYS $nsys_bin: no such file (the nsys of Nsight Compute is /opt/nvidia/nsight-compute/VERSION/host/target-linux-x64/nsys)"
if [ ! -f "$nsys_bin" ] || [ ! -x "$nsys_bin" ]; then
  die "NSYS $nsys_bin: not an executable file"
fi
nsys_bin=$(cd -- "$(dirname -- "$nsys_bin")" && pwd)/$(basename -- "$nsys_bin")
nsys="$work/nsys"
cat >"$nsys" <<WRAPPER
#!/bin/sh
LD_LIBRARY_PATH="$bundle/nsys-lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$nsys_bin" "\$@"
WRAPPER
chmod +x "$nsys"
nsys_version=$(timeout 120 "$nsys" --version 2>&1) ||
  die "NSYS $nsys_bin --version failed (exit $?): $(printf '%s\n' "$nsys_version" | head -n 1)"
case "$nsys_version" in
  *"Nsight Systems"*) ;;
  *) die "NSYS $nsys_bin is not Nsight Systems: --version says $(printf '%s\n' "$nsys_version" | head -n 1)" ;;
esac
nsys_version=$(printf '%s\n' "$nsys_version" | grep -m 1 'Nsight Systems')
timeout 120 "$nsys" stats --help >"$res/nsys-stats-help.txt" 2>&1 ||
  die "NSYS $nsys_bin stats --help failed: $(head -n 1 "$res/nsys-stats-help.txt") (all of it in $res/nsys-stats-help.txt)"
# Only the flags this nsys has: --quiet keeps progress lines out of the
# output; --force-overwrite lets the reference files be written again.
quiet=() overwrite=()
grep -q -- '--quiet' "$res/nsys-stats-help.txt" && quiet=(--quiet)
grep -q -- '--force-overwrite' "$res/nsys-stats-help.txt" && overwrite=(--force-overwrite=true)
timeout 120 "$nsys" stats --help-reports >"$res/nsys-stats-help-reports.txt" 2>&1 || : >"$res/nsys-stats-help-reports.txt"

ws_version=$("$cli" --version 2>&1 | head -n 1) || die "$cli does not run: $ws_version"

# The nsys part of the output of `--output -` that is not the report: its
# progress lines, the " ** Title (report):" header and blank lines around.
strip_console ()
{
  awk '
    !body && (/^$/ || /^Processing \[/ || /^Generating / || /^ \*\* .*\):[ \t]*$/) { next }
    { body = 1; lines[++n] = $0 }
    END { while (n > 0 && lines[n] == "") n--; for (i = 1; i <= n; i++) print lines[i] }' "$1"
}

# ensure_file N - the export of N kernels in $file, made when missing.
ensure_file ()
{
  case "$1" in *.sqlite) file=$(realpath -- "$1"); return 0 ;; esac
  file="$cache_dir/nsys-synth-$1-$gen_key.sqlite"
  if [ -f "$file" ]; then
    say "  reusing $file"
  else
    mkdir -p -- "$cache_dir" || return 1
    "$bench_dir/gen-export.sh" "$1" "$file" 2>&1 | tee -a "$progress" >&2
  fi
  [ -f "$file" ]
}

# run_cmd OUTFILE CMD... - measure under timeout, CMD's standard error in
# $work/last.err (and appended to stderr.log); sets m_status too.
run_cmd ()
{
  m_status=0
  log="$work/last.err"
  : >"$log"
  measure "$1" timeout "$limit" "${@:2}" || m_status=$?
  cat "$log" >>"$res/stderr.log"
  log="$res/stderr.log"
  [ "$m_status" = 0 ]
}

# cell STATUS - the word for a command that did not end well.
cell ()
{
  case "$1" in
    124) printf 'TIMEOUT' ;;
    *) printf 'FAIL' ;;
  esac
}

# why STATUS - why it did not, for the progress lines.
why ()
{
  case "$1" in
    124) printf 'stopped after %s s' "$limit" ;;
    *) printf 'exit %s: %s' "$1" "$(tail -n 1 "$work/last.err")" ;;
  esac
}

failed=0
put "## warpscope-cli stats against nsys stats"
put ""
put "- nsys: $nsys_bin ($nsys_version), with LD_LIBRARY_PATH=$bundle/nsys-lib; flags: --format csv --output -${quiet:+ ${quiet[*]}}"
put "- warpscope-cli: $cli ($ws_version)"
put "- source: $(git -C "$src_root" describe --always --dirty 2>/dev/null || echo unknown); sqlite3 $(printf '%s' "$sqlite_version" | cut -d ' ' -f 1) ($(command -v sqlite3)) for the exports"
put "- host: $(nproc 2>/dev/null || echo '?') CPUs ($(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null) RAM, load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null)"
put "- method: warm page cache; one warm-up run of each command, then the median of $runs runs, nsys and warpscope-cli alternated; peak RSS from ${time_bin:-python3 wait4} (the largest process of each command's tree); each command stopped after $limit s"
put ""

for n in "$@"; do
  say "N = $n"
  if ! ensure_file "$n"; then
    say "  FAILED: could not make the export of $n kernels"
    failed=1
    continue
  fi
  dir="$res/$(basename -- "$n" .sqlite)"
  rm -rf -- "$dir"
  mkdir -p -- "$dir" "$work/cwd"
  # Every command runs in an empty folder, to see what nsys leaves there.
  cd "$work/cwd" || die "cannot enter $work/cwd"
  rows=""
  before=$(find "$cache_dir" -mindepth 1 -maxdepth 1 -printf '%f\n')
  stamp=$(stat -c '%s %Y' -- "$file")
  for r in "${reports[@]}"; do
    say "  $r"
    ns_s="—" ws_s="—" ns_m="—" ws_m="—" speedup="—" verdict="—"
    if [ -s "$res/nsys-stats-help-reports.txt" ] && ! grep -qw -- "$r" "$res/nsys-stats-help-reports.txt"; then
      say "    this nsys has no report $r (nsys stats --help-reports): left out"
      rows="$rows| $r | no such report | | | | | |
"
      continue
    fi
    nsys_cmd=("$nsys" stats "${quiet[@]}" --report "$r" --format csv --output - "$file")
    ws_cmd=("$cli" stats --report "$r" -f csv "$file")
    base_cmd=("${WS_BASELINE:-}" stats --report "$r" -f csv "$file")
    base_s="—" base_m="—"

    # Untimed: the reference CSV file, then the warm-ups, whose outputs
    # are kept.
    timeout "$limit" "$nsys" stats "${quiet[@]}" "${overwrite[@]}" --report "$r" --format csv \
      --output "$dir/nsys" "$file" >"$dir/nsys-file-$r.stdout" 2>"$dir/nsys-file-$r.stderr"
    status=$?
    [ "$status" = 0 ] || say "    nsys stats --output $dir/nsys: exit $status: $(head -n 1 "$dir/nsys-file-$r.stderr")"
    nsys_ok=0 ws_ok=0
    if run_cmd "$dir/nsys-$r.stdout" "${nsys_cmd[@]}"; then
      nsys_ok=1
    else
      ns_s=$(cell "$m_status")
      say "    FAILED: nsys stats --output - ($(why "$m_status"))"
      failed=1
    fi
    cp -- "$work/last.err" "$dir/nsys-$r.stderr"
    if run_cmd "$dir/ws-$r.csv" "${ws_cmd[@]}"; then
      ws_ok=1
    else
      ws_s=$(cell "$m_status")
      say "    FAILED: warpscope-cli stats ($(why "$m_status"))"
      failed=1
    fi
    cp -- "$work/last.err" "$dir/ws-$r.stderr"

    # The check: ws's CSV against the file nsys wrote, byte for byte; a
    # report both skip (no such data in the export) writes no file there
    # and nothing on ws's standard output.
    # nsys names it PREFIX_REPORT.csv; should this one name it otherwise,
    # the CSV file it wrote for this report.
    ref="$dir/nsys_$r.csv"
    if [ ! -f "$ref" ]; then
      for f in "$dir"/nsys*"$r"*.csv; do
        [ -f "$f" ] && { ref="$f"; say "    nsys wrote $(basename -- "$f") for $r"; break; }
      done
    fi
    console="$dir/nsys-$r.console.txt"
    [ "$nsys_ok" = 0 ] || strip_console "$dir/nsys-$r.stdout" >"$console"
    if [ "$ws_ok" = 1 ]; then
      if [ -f "$ref" ]; then
        if cmp -s -- "$ref" "$dir/ws-$r.csv"; then
          verdict="identical"
        elif cmp -s <(sort -- "$ref") <(sort -- "$dir/ws-$r.csv"); then
          verdict="CHECK FAILED: same rows, other order"
        else
          verdict="CHECK FAILED: $(cmp -- "$ref" "$dir/ws-$r.csv" 2>&1 | head -n 1 | sed "s|$dir/||g")"
        fi
      elif [ ! -s "$dir/ws-$r.csv" ] && grep -q '^SKIPPED' "$dir/ws-$r.stderr" &&
           grep -q 'SKIPPED' "$dir/nsys-file-$r.stdout" "$dir/nsys-file-$r.stderr" "$dir/nsys-$r.stdout" "$dir/nsys-$r.stderr"; then
        verdict="both skip it"
      elif [ -s "$console" ]; then
        # No file: what --output - printed, less the lines around the CSV.
        if cmp -s -- "$console" "$dir/ws-$r.csv"; then
          verdict="identical to --output - (nsys wrote no file)"
        else
          verdict="CHECK FAILED: nsys wrote no file, and --output - printed something else ($(basename -- "$console"))"
        fi
      else
        verdict="CHECK FAILED: nsys wrote no $(basename -- "$ref") and printed no CSV"
      fi
      case "$verdict" in CHECK*) failed=1 ;; esac
      say "    check: $verdict"
      # What --output - printed, as it compares with the file.
      if [ "$nsys_ok" = 1 ] && [ -f "$ref" ]; then
        if cmp -s -- "$ref" "$console"; then
          say "    --output - printed the same CSV ($(($(wc -l <"$dir/nsys-$r.stdout") - $(wc -l <"$ref"))) other lines around it)"
        elif cmp -s -- "$console" "$dir/ws-$r.csv"; then
          say "    --output - printed warpscope-cli's CSV, the file something else: see $dir/nsys-$r.stdout"
        else
          say "    --output - printed something else than the file: see $dir/nsys-$r.stdout"
        fi
      fi
    fi

    # The timed runs, alternated; a command whose warm-up failed is left out.
    ns_w="" ns_r="" ws_w="" ws_r="" base_w="" base_r=""
    if [ -n "${WS_BASELINE:-}" ]; then
      run_cmd /dev/null "${base_cmd[@]}" || say "    FAILED: the baseline ($(why "$m_status"))"
    fi
    for i in $(seq "$runs"); do
      if [ -n "${WS_BASELINE:-}" ] && run_cmd /dev/null "${base_cmd[@]}"; then
        base_w="$base_w $m_wall" base_r="$base_r $m_rss"
      fi
      if [ "$nsys_ok" = 1 ]; then
        if run_cmd /dev/null "${nsys_cmd[@]}"; then
          ns_w="$ns_w $m_wall" ns_r="$ns_r $m_rss"
        else
          say "    FAILED: nsys, run $i ($(why "$m_status"))"; failed=1; nsys_ok=0; ns_s=$(cell "$m_status")
        fi
      fi
      if [ "$ws_ok" = 1 ]; then
        if run_cmd /dev/null "${ws_cmd[@]}"; then
          ws_w="$ws_w $m_wall" ws_r="$ws_r $m_rss"
        else
          say "    FAILED: warpscope-cli, run $i ($(why "$m_status"))"; failed=1; ws_ok=0; ws_s=$(cell "$m_status")
        fi
      fi
    done
    # shellcheck disable=SC2086
    if [ "$nsys_ok" = 1 ]; then
      ns_s=$(median $ns_w) ns_m=$(median $ns_r)
      ns_m=$(awk -v v="$ns_m" 'BEGIN { printf "%.1f", v / 1024 }')
      say "    nsys $ns_s s (runs:$ns_w), $ns_m MiB"
    fi
    # shellcheck disable=SC2086
    if [ "$ws_ok" = 1 ]; then
      ws_s=$(median $ws_w) ws_m=$(median $ws_r)
      ws_m=$(awk -v v="$ws_m" 'BEGIN { printf "%.1f", v / 1024 }')
      say "    ws   $ws_s s (runs:$ws_w), $ws_m MiB"
    fi
    # shellcheck disable=SC2086
    if [ -n "$base_w" ]; then
      base_s=$(awk -v v="$(median $base_w)" 'BEGIN { printf "%.3f", v }')
      base_m=$(awk -v v="$(median $base_r)" 'BEGIN { printf "%.1f", v / 1024 }')
      say "    baseline $base_s s (runs:$base_w), $base_m MiB"
    fi
    if [ "$nsys_ok" = 1 ] && [ "$ws_ok" = 1 ]; then
      speedup=$(awk -v a="$ns_s" -v b="$ws_s" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "—" }')
      say "    speed-up $speedup"
    fi
    [ "$nsys_ok" = 0 ] || ns_s=$(awk -v v="$ns_s" 'BEGIN { printf "%.3f", v }')
    [ "$ws_ok" = 0 ] || ws_s=$(awk -v v="$ws_s" 'BEGIN { printf "%.3f", v }')
    row="| $r | $ns_s | $ws_s | $speedup | $ns_m | $ws_m | $verdict |"
    [ -z "${WS_BASELINE:-}" ] || row="$row $base_s | $base_m |"
    printf '%s\n' "$row" >>"$dir/rows.md"
    rows="$rows$row
"
  done
  # Whatever nsys left beside the export or in its working folder.
  after=$(find "$cache_dir" -mindepth 1 -maxdepth 1 -printf '%f\n')
  left=$(comm -13 <(printf '%s\n' "$before" | sort) <(printf '%s\n' "$after" | sort) | tr '\n' ' ')
  [ -z "$left" ] || say "  new beside the export since the first nsys run: $left"
  [ "$(stat -c '%s %Y' -- "$file")" = "$stamp" ] ||
    say "  the export changed (size or time) while the reports ran: nsys wrote into it?"
  left=$(find "$work/cwd" -mindepth 1 -maxdepth 1 -printf '%f ')
  [ -z "$left" ] || say "  left in the working folder: $left"
  cd / && rm -rf -- "$work/cwd"

  put "### N = $n kernels ($(basename -- "$file"), $(awk -v s="$(stat -c %s -- "$file")" 'BEGIN { printf "%.0f MB", s / 1e6 }'))"
  put ""
  if [ -n "${WS_BASELINE:-}" ]; then
    put "| report | nsys s | ws s | speed-up | nsys MiB | ws MiB | CSV | baseline ws s | baseline ws MiB |"
    put "|---|---:|---:|---:|---:|---:|---|---:|---:|"
  else
    put "| report | nsys s | ws s | speed-up | nsys MiB | ws MiB | CSV |"
    put "|---|---:|---:|---:|---:|---:|---|"
  fi
  printf '%s' "$rows" | tee -a "$results"
  put ""
done

put "Wall seconds and peak RSS (MiB = 2^20 bytes), median of $runs runs; speed-up = nsys s / ws s;" \
    "CSV: ws's output against the file nsys stats --output PREFIX writes. Everything: $res"
exit "$failed"

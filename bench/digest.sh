#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# digest.sh [-B BUILDDIR] [N...] - the job digest benchmark (issue 19).
#
# For each N (ranks; default 256 1024) it makes, or reuses from
# $BENCH_DIR, a job of N exports (bench/gen-job.sh: replicas of the four
# DDP ranks with shifted clocks and one planted straggler), then measures:
#
#   threads  warpscope-cli digest -o JOB.wsdigest DIR           (local threads)
#   mpi P    mpirun -n P warpscope-cli digest --mpi -o … DIR   P = 1, 2, 4
#   size     the digest's bytes / N
#   open     the window (warpscope, under Xvfb) opening the digest until its
#            Ranks page, merged summaries and findings are loaded, against
#            the same for the four-rank digest of the fixtures (baseline)
#   redraw   bench/redraw-timing --view ranks --repeat 50: the Ranks page's
#            heatmap (1920 px wide, every row 3 px or more) redrawn in a
#            1920x1080 viewport, and whole (10 redraws)
#
# and checks that every digest says the same (warpscope-cli ranks --format
# csv, byte for byte) and names the planted straggler.  Ends with a
# Markdown table.  See bench/README.md for what each figure means.
#
# -B BUILDDIR: BUILDDIR/src/cli/warpscope-cli and BUILDDIR/src/app/warpscope
# (built with ninja first; the window figure is skipped without the app);
# else $WARPSCOPE_CLI / $WARPSCOPE_APP, else the source tree's build/.
# Environment: BENCH_DIR (default /tmp/warpscope-bench), BENCH_RUNS
# (measured runs of each digest, default 1; of each open, 3 + 1 warm-up),
# BENCH_XVFB_SERVERNUM (Xvfb display number, default 99), BENCH_MPI_PROCS
# (default "1 2 4").
#
# Exit status: 0 when every command ran and every check passed (whether the
# goals are met or not), 1 otherwise, 2 on bad usage.

set -eu
set -o pipefail

bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
src_root=$(cd -- "$bench_dir/.." && pwd)

usage_example="256 1024"
# shellcheck source=bench/lib.sh
. "$bench_dir/lib.sh"
bench_parse_args 4,32 "$@"
[ "${#ns[@]}" -gt 0 ] || ns=(256 1024)

cache_dir="${BENCH_DIR:-/tmp/warpscope-bench}"
runs="${BENCH_RUNS:-1}"
display="${BENCH_XVFB_SERVERNUM:-99}"
procs="${BENCH_MPI_PROCS:-1 2 4}"
bench_find_cli
bench_find_redraw
if [ -n "${WARPSCOPE_APP:-}" ]; then
  app="$WARPSCOPE_APP"
elif [ -n "$build_dir" ]; then
  ninja -C "$build_dir" src/app/warpscope >&2 2>/dev/null || true
  app="$build_dir/src/app/warpscope"
else
  app="$src_root/build/src/app/warpscope"
fi
[ -x "$cli" ] || { echo "$0: no warpscope-cli at $cli" >&2; exit 1; }
command -v mpirun >/dev/null 2>&1 || { echo "$0: mpirun (openmpi-bin) is needed" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-bench-digest.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
failed=0
job_key=$(grep -v '^[[:space:]]*#' "$bench_dir/gen-job.sh" | cksum | cut -d ' ' -f 1)
# Open MPI refuses root unless told; CI and this VM run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

now () { date +%s.%N; }
secs () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# timed OUT_NAME CMD... - median wall seconds of $runs runs of CMD, which
# must exit 0; its last output stays in $work/OUT_NAME.log.
timed ()
{
  local name="$1" t0 t1 all=() i
  shift
  for ((i = 0; i < runs; i++)); do
    t0=$(now)
    if ! "$@" >"$work/$name.log" 2>&1; then
      echo "FAILED: $*" >&2; cat "$work/$name.log" >&2; failed=1
    fi
    t1=$(now)
    all+=("$(secs "$t0" "$t1")")
  done
  median "${all[@]}"
}

# check_same DIGEST REFERENCE_CSV STRAGGLER - the digest says what the
# reference says, and names the planted straggler.
check_same ()
{
  "$cli" ranks --format csv "$1" >"$work/check.csv" 2>/dev/null || { echo "CHECK FAILED: ranks $1" >&2; failed=1; }
  if [ -f "$2" ] && ! cmp -s "$work/check.csv" "$2"; then
    echo "CHECK FAILED: $1 differs from the threads' digest" >&2; failed=1
  fi
  if ! "$cli" ranks "$1" 2>/dev/null | grep -q "Straggler: rank $3,"; then
    echo "CHECK FAILED: $1 does not name rank $3 the straggler" >&2; failed=1
  fi
}

# open_times DIGEST... - per digest, the median seconds from starting the
# window to its "loaded" line (WARPSCOPE_EXIT_AFTER_LOAD), one Xvfb for all.
open_times ()
{
  xvfb-run -n "$display" -s '-screen 0 1920x1080x24' bash -c '
    app=$1 runs=$2; shift 2
    for f in "$@"; do
      all=""
      for ((i = 0; i <= runs; i++)); do
        t0=$(date +%s%N)
        line=$(WARPSCOPE_EXIT_AFTER_LOAD=1 "$app" "$f" 2>/dev/null | grep "^loaded" || true)
        t1=$(date +%s%N)
        case "$line" in "loaded yes page=ranks"*) ;; *) echo "FAILED $f: $line" >&2; echo nan; continue 2 ;; esac
        [ "$i" -eq 0 ] || all="$all $(( (t1 - t0) / 1000000 ))"
      done
      printf "%s\n" $all | sort -n | awk "{ v[NR] = \$1 } END { printf \"%.3f\n\", v[int((NR + 1) / 2)] / 1000 }"
    done' open "$app" 3 "$@"
}

# The baseline of the open figure: the four fixture ranks' digest.
base_dir="$work/job4"
mkdir -p "$base_dir"
for r in 0 1 2 3; do xz -dc "$src_root/tests/data/multirank/rank$r.sqlite.xz" >"$base_dir/rank$r.sqlite"; done
"$cli" digest -o "$work/job4.wsdigest" "$base_dir" >/dev/null 2>&1 || { echo "FAILED: digest of the fixtures" >&2; exit 1; }

rows=()
for n in "${ns[@]}"; do
  job="$cache_dir/digest-job-$n-$job_key"
  if [ ! -f "$job/.complete" ]; then
    echo "Generating $n ranks in $job" >&2
    rm -rf -- "$job"
    "$bench_dir/gen-job.sh" "$n" "$job" >"$job.straggler"
    mv -- "$job.straggler" "$job/.straggler"
    touch "$job/.complete"
  fi
  straggler=$(cat "$job/.straggler")
  mib=$(du -sm "$job" | cut -f 1)
  echo "== $n ranks ($mib MiB of exports, straggler $straggler)" >&2

  t_threads=$(timed threads "$cli" digest -o "$work/threads.wsdigest" "$job")
  echo "threads ($(nproc) cores): $t_threads s  $(tail -n 1 "$work/threads.log")" >&2
  "$cli" ranks --format csv "$work/threads.wsdigest" >"$work/reference.csv" 2>/dev/null || failed=1
  check_same "$work/threads.wsdigest" "" "$straggler"
  size=$(stat -c %s "$work/threads.wsdigest")

  mpi=()
  for p in $procs; do
    t=$(timed "mpi$p" mpirun --oversubscribe -n "$p" "$cli" digest --mpi -o "$work/mpi$p.wsdigest" "$job")
    echo "mpi $p: $t s  $(grep -v '^$' "$work/mpi$p.log" | tail -n 1)" >&2
    check_same "$work/mpi$p.wsdigest" "$work/reference.csv" "$straggler"
    mpi+=("$t")
  done

  open="-"; base_open="-"; redraw="-"; redraw_full="-"
  if [ -x "$app" ] && command -v xvfb-run >/dev/null 2>&1; then
    mapfile -t opened < <(open_times "$work/job4.wsdigest" "$work/threads.wsdigest")
    base_open=${opened[0]:-nan}; open=${opened[1]:-nan}
    echo "open: $open s (4-rank digest: $base_open s)" >&2
    [ "$open" != nan ] || failed=1
  fi
  # The page's view at 1920 px, all its rows tall, redrawn in a 1080 px
  # viewport (what a full-screen window shows), then whole.
  "$redraw" --view ranks --repeat 50 --size 1920x1080 "$work/threads.wsdigest" >"$work/redraw.log" || failed=1
  redraw=$(sed -n 's/^render_ms median=\([0-9.]*\).*cpu_median=\([0-9.]*\).*/\1 (CPU \2)/p' "$work/redraw.log")
  "$redraw" --view ranks --repeat 10 --size 1920x0 "$work/threads.wsdigest" >"$work/redraw-all.log" || failed=1
  redraw_full=$(sed -n 's/^render_ms median=\([0-9.]*\).*cpu_median=\([0-9.]*\).*/\1 (CPU \2)/p' "$work/redraw-all.log")
  echo "redraw median: $redraw ms in 1920x1080, $redraw_full ms whole; $(head -n 1 "$work/redraw.log")" >&2

  row="| $n | $mib | $t_threads"
  for t in "${mpi[@]}"; do row="$row | $t"; done
  row="$row | $(ratio "${mpi[0]}" "${mpi[1]:-${mpi[0]}}") | $((size / n / 1024)) | $open | $base_open | $redraw | ${redraw_full:--} |"
  rows+=("$row")
done

echo
echo "Job digests on $(nproc) cores; digest times in s (median of $runs), open in s (median of 3), redraw: median of 50 (all rows: of 10), wall (CPU)"
echo
hdr="| ranks | exports MiB | threads"
sep="|---:|---:|---:"
for p in $procs; do hdr="$hdr | MPI $p"; sep="$sep|---:"; done
echo "$hdr | MPI 1 / MPI 2 | KiB per rank | open | open, 4 ranks | redraw 1920×1080 ms | redraw, all rows ms |"
echo "$sep|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "Goals: MPI 1 / MPI 2 >= 1.7; open of 1,024 ranks <= 1 s; redraw median <= 16 ms"
exit "$failed"

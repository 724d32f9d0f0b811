# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with the calling scripts
#
# lib.sh - what the scripts of bench/ (and tests/device/bench-nsys-stats.sh)
# share: their command line, the choice of warpscope-cli, the key of the
# cached exports, the median, the read-only SQLite URI and the timed run
# with its peak RSS.  Sourced by them (not run) once they have set
# bench_dir, src_root and usage_example (the Ns the usage line gives as an
# example).

usage ()
{
  echo "usage: $0 [-B BUILDDIR] [N...]   (N = kernels, e.g. $usage_example)" >&2
  exit 2
}

# bench_parse_args HELP_LINES ARG... - the options into build_dir, the Ns
# into the array ns (empty when none is given); -h prints the lines
# HELP_LINES (a sed range) of the calling script, its opening comment.
bench_parse_args ()
{
  local help="$1" n
  shift
  build_dir=""
  while [ "$#" -gt 0 ]; do
    case "$1" in
      -B) [ "$#" -ge 2 ] || usage; build_dir="$2"; shift 2 ;;
      --build-dir=*) build_dir="${1#*=}"; shift ;;
      -h | --help) sed -n "${help}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
      --) shift; break ;;
      -*) usage ;;
      *) break ;;
    esac
  done
  for n in "$@"; do
    case "$n" in
      '' | *[!0-9]*) usage ;;
    esac
    [ "$n" -ge 1 ] || usage
  done
  ns=("$@")
}

# bench_find_cli - the warpscope-cli to measure, in cli: $WARPSCOPE_CLI,
# else BUILDDIR/src/cli/warpscope-cli brought up to date (BUILDDIR set up
# with -Dgui=disabled when new), else the source tree's build/.
bench_find_cli ()
{
  if [ -n "${WARPSCOPE_CLI:-}" ]; then
    cli="$WARPSCOPE_CLI"
  elif [ -n "$build_dir" ]; then
    case "$build_dir" in
      /*) ;;
      *) build_dir="$PWD/$build_dir" ;;
    esac
    if [ ! -f "$build_dir/build.ninja" ]; then
      echo "Setting up $build_dir (meson, -Dgui=disabled)" >&2
      meson setup "$build_dir" "$src_root" -Dgui=disabled >&2
    fi
    ninja -C "$build_dir" src/cli/warpscope-cli >&2
    cli="$build_dir/src/cli/warpscope-cli"
  else
    cli="$src_root/build/src/cli/warpscope-cli"
  fi
}

# bench_find_redraw - the redraw-timing program (bench/redraw-timing.c),
# in redraw: $WARPSCOPE_REDRAW_TIMING, else BUILDDIR/bench/redraw-timing
# brought up to date, else the source tree's build/.  Call after
# bench_find_cli, which sets BUILDDIR up.
bench_find_redraw ()
{
  if [ -n "${WARPSCOPE_REDRAW_TIMING:-}" ]; then
    redraw="$WARPSCOPE_REDRAW_TIMING"
  elif [ -n "$build_dir" ]; then
    ninja -C "$build_dir" bench/redraw-timing >&2
    redraw="$build_dir/bench/redraw-timing"
  else
    redraw="$src_root/build/bench/redraw-timing"
  fi
}

# The cached exports are named nsys-synth-N-$gen_key.sqlite: a checksum of
# the generator (its comments aside) and its settings, so that a changed
# generator never reuses a stale file.
gen_key=$( { grep -v '^[[:space:]]*#' "$bench_dir/gen-export.sh"
             echo "${BENCH_FIXTURE:-default} ${NVTX_DIVISOR:-10}"; } | cksum | cut -d ' ' -f 1)

median ()
{
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# A read-only, immutable SQLite URI for a path, as the reader opens files:
# '%', '?', '#' and "'" are percent-encoded, so it also fits in a SQL string.
ro_uri ()
{
  printf 'file:%s?mode=ro&immutable=1' "$(printf '%s' "$1" | sed "s/%/%25/g; s/?/%3f/g; s/#/%23/g; s/'/%27/g")"
}

# bench_find_time - how measure gets peak RSS: time_bin=/usr/bin/time when
# GNU time is installed, else empty and python3's wait4 is used; fails,
# after saying so, when there is neither.
bench_find_time ()
{
  time_bin=""
  if [ -x /usr/bin/time ] && /usr/bin/time -f '%M' -o /dev/null true 2>/dev/null; then
    time_bin=/usr/bin/time
  elif ! command -v python3 >/dev/null 2>&1; then
    echo "$0: need /usr/bin/time (GNU) or python3 to measure peak RSS" >&2
    return 1
  fi
}

# measure OUTFILE CMD... - runs CMD with stdout to OUTFILE, stderr appended
# to $log; sets m_wall (s) and m_rss (KiB, the peak RSS of the largest
# process of CMD's tree); returns CMD's exit status.  Needs bench_find_time
# first, and $work (a scratch folder) and $log set.
measure ()
{
  local outfile="$1" t0 t1 result status=0
  shift
  if [ -n "$time_bin" ]; then
    t0=$(date +%s%N)
    "$time_bin" -f '%M' -o "$work/rss" "$@" >"$outfile" 2>>"$log" || status=$?
    t1=$(date +%s%N)
    m_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
    m_rss=$(tail -n 1 "$work/rss")
  else
    # posix_spawn from a bare interpreter: the child's peak RSS includes
    # that of the process it was spawned from (about 8 MiB here).
    result=$(python3 -I -S -c '
import os, sys, time
out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
err = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
t = time.monotonic()
pid = os.posix_spawnp(sys.argv[3], sys.argv[3:], os.environ,
                      file_actions=[(os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, err, 2)])
_, status, usage = os.wait4(pid, 0)
wall = time.monotonic() - t
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
print("%.4f %d %d" % (wall, usage.ru_maxrss, code))
' "$outfile" "$log" "$@") || true
    read -r m_wall m_rss status <<<"$result" || true
    [ -n "${status:-}" ] || { m_wall=0; m_rss=0; status=127; }
  fi
  return "$status"
}

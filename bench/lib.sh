# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with the calling scripts
#
# lib.sh - what bench/run.sh and bench/timeline.sh share: their command
# line, the choice of warpscope-cli, the key of the cached exports and the
# median.  Sourced by them (not run) once they have set bench_dir, src_root
# and usage_example (the Ns the usage line gives as an example).

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

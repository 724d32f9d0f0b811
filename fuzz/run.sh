#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for a
# bounded time on seed corpora made from tests/data.  Crashes land in
# fuzz/artifacts/<target>/; copy each into tests/data/fuzz-regressions/ so
# that the corrupt-corpus test replays it.
#
# Usage: fuzz/run.sh [SECONDS per target, default 60] [TARGET...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build=$root/build-fuzz
work=${FUZZ_DIR:-/tmp/warpscope-fuzz}

if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$root" -Dfuzzing=true -Dgui=disabled -Db_sanitize=address,undefined \
    -Db_lundef=false --buildtype=debugoptimized >/dev/null
fi
ninja -C "$build" >/dev/null

seed () { # target dir files...
  local dir=$work/corpus/$1; shift
  mkdir -p "$dir"
  for f in "$@"; do cp -n "$f" "$dir/" 2>/dev/null || true; done
}
seed fuzz-csv "$root"/tests/data/nsys-stats/*.csv "$root"/tests/data/ncu/*.csv "$root"/tests/data/targets/*.tsv
seed fuzz-nsys-stats "$root"/tests/data/nsys-stats/*
seed fuzz-nsys-sqlite "$root"/tests/data/nsys/v2026.1_nsysai_mock.sqlite "$root"/tests/data/nsys/v2021.2_mordred.sqlite
seed fuzz-targets "$root"/tests/data/targets/*
seed fuzz-cpu-profile "$root"/tests/data/cpu/*
# The trace's first 16 KiB of JSON: its header and first events (cut short).
mkdir -p "$work/corpus/fuzz-kineto"
(gzip -dc "$root"/tests/data/kineto/encoder_rank0.json.gz | head -c 16384 \
  >"$work/corpus/fuzz-kineto/encoder-head.json") || true
seed fuzz-nvprof-log "$root"/tests/data/nvprof/*.txt "$root"/tests/data/nvprof/*.csv
# The V100 `--metrics all` text, cut to its first kernels (the whole is 2,587 lines).
seed fuzz-nvprof-metrics "$root"/tests/data/nvprof/metrics_*.* "$root"/tests/data/nvprof/events_*
mkdir -p "$work/corpus/fuzz-nvprof-metrics"
xz -dc "$root"/tests/data/nvprof/v100_darknet19_metrics.txt.xz | head -n 260 \
  >"$work/corpus/fuzz-nvprof-metrics/v100-head.txt" || true
# ncu exports are wide (2,000 metric columns) and long: seeds keep the
# first columns of the first launches, so that an input runs in microseconds.
mkdir -p "$work/corpus/fuzz-ncu"
for f in "$root"/tests/data/ncu/*; do
  b=$(basename "$f")
  (head -n 4 "$f" | cut -d, -f1-48 >"$work/corpus/fuzz-ncu/narrow-$b") || true
  (head -n 120 "$f" | head -c 32768 >"$work/corpus/fuzz-ncu/head-$b") || true
done
for extra in "$root"/fuzz/fuzz-*.c; do
  t=$(basename "$extra" .c)
  [ -d "$work/corpus/$t" ] || seed "$t" "$root"/tests/data/*/*.csv
done

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(find "$build/fuzz" -maxdepth 1 -type f -executable -name 'fuzz-*' -printf '%f\n' | sort)
fi

# A sanitizer's report stops the target and leaves the input in artifacts/.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
for t in "${targets[@]}"; do
  mkdir -p "$root/fuzz/artifacts/$t"
  max_len=1048576
  [ "$t" = fuzz-nsys-sqlite ] && max_len=4194304
  echo "== $t: ${seconds}s"
  "$build/fuzz/$t" "$work/corpus/$t" -max_total_time="$seconds" -max_len=$max_len -rss_limit_mb=4096 \
    -timeout=30 -artifact_prefix="$root/fuzz/artifacts/$t/" -print_final_stats=1 2>&1 \
    | grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY)' || true
done
echo "corpora in $work/corpus; crashes (if any) in fuzz/artifacts/"

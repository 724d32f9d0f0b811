#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-job.sh N OUT_DIR - a job of N ranks for the digest benchmark
# (bench/digest.sh): OUT_DIR/rank0000.sqlite … made from the four DDP
# rank exports of tests/data/multirank (nsys 2025, PyTorch DDP, 12 steps).
#
# Rank r is a copy of fixture rank r mod 3 (ranks 0–2, which keep pace),
# except the planted straggler, rank N/2 + 7 (135 of 256, 519 of 1,024),
# a copy of fixture rank 3, which reaches most steps' synchronisation last.
# Each copy gets its own rank in the environment it records (RANK,
# ROLE_RANK, LOCAL_RANK = r mod 4, GROUP_RANK = r / 4, WORLD_SIZE = N) and
# its own clock: its session start (TARGET_INFO_SESSION_START_TIME) moved
# by (7 r mod 20) µs, so the digest has to align 20 different clocks.
# The events are left as they are (the shifts stay far below the
# straggler's lead of 0.2–1.6 ms per step).
#
# Only sqlite3, xz and coreutils; about 11 MiB per rank.

set -eu
[ "$#" -eq 2 ] || { echo "usage: $0 N OUT_DIR" >&2; exit 2; }
n=$1
out=$2
case "$n" in '' | *[!0-9]*) echo "$0: N must be a positive integer" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "$0: N must be a positive integer" >&2; exit 2; }
src_root=$(cd -- "$(dirname -- "$0")/.." && pwd)
fixtures="$src_root/tests/data/multirank"
straggler=$((n / 2 + 7))
[ "$straggler" -lt "$n" ] || straggler=$((n - 1))

mkdir -p -- "$out"
base=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-gen-job.XXXXXX")
trap 'rm -rf -- "$base"' EXIT
for f in 0 1 2 3; do
  xz -dc "$fixtures/rank$f.sqlite.xz" >"$base/rank$f.sqlite"
done

for ((r = 0; r < n; r++)); do
  f=$((r % 3))
  [ "$r" -ne "$straggler" ] || f=3
  dest=$(printf '%s/rank%04d.sqlite' "$out" "$r")
  cp -- "$base/rank$f.sqlite" "$dest.tmp"
  sqlite3 "$dest.tmp" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + $(((7 * r % 20) * 1000));
UPDATE META_DATA_CAPTURE SET value = 'RANK="$r"' WHERE value LIKE 'RANK="%"';
UPDATE META_DATA_CAPTURE SET value = 'ROLE_RANK="$r"' WHERE value LIKE 'ROLE_RANK="%"';
UPDATE META_DATA_CAPTURE SET value = 'LOCAL_RANK="$((r % 4))"' WHERE value LIKE 'LOCAL_RANK="%"';
UPDATE META_DATA_CAPTURE SET value = 'GROUP_RANK="$((r / 4))"' WHERE value LIKE 'GROUP_RANK="%"';
UPDATE META_DATA_CAPTURE SET value = 'WORLD_SIZE="$n"' WHERE value LIKE 'WORLD_SIZE="%"';
UPDATE META_DATA_CAPTURE SET value = 'ROLE_WORLD_SIZE="$n"' WHERE value LIKE 'ROLE_WORLD_SIZE="%"';
UPDATE META_DATA_CAPTURE SET value = 'GROUP_WORLD_SIZE="$(((n + 3) / 4))"'
  WHERE value LIKE 'GROUP_WORLD_SIZE="%"';
SQL
  mv -- "$dest.tmp" "$dest"
done
echo "$straggler"

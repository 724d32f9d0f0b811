#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-export.sh N OUT.sqlite - write a synthetic Nsight Systems SQLite export
# with exactly N kernels, for the load and stats benchmarks (bench/run.sh).
#
# The file has the real schema of a real export (the H100 probe fixture, nsys
# 2025.3, schema 3.20.3): every CREATE statement of its sqlite_master, and
# its small tables copied as they are (StringIds, ThreadNames, PROCESSES,
# META_DATA_EXPORT, META_DATA_CAPTURE, TARGET_INFO_*, ENUM_*).  The events are
# the fixture's own rows, replicated:
#
#   - CUPTI_ACTIVITY_KIND_KERNEL: all 336 kernels of the fixture, copied
#     ceil(N / 336) times, the last copy cut so that there are exactly N;
#   - CUPTI_ACTIVITY_KIND_RUNTIME: for each kernel, the API call that
#     launched it (cudaLaunchKernel, found by correlation id): exactly N rows;
#   - NVTX_EVENTS: whole copies of the fixture's 147 NVTX rows (146 push/pop
#     ranges, 1 mark) in ceil(N / 1460) of the kernel copies (the first, then
#     about one in 4.3, spread evenly over the timeline): about N / 10 ranges
#     (N / NVTX_DIVISOR), rounded up to whole copies of 146: 10,074 ranges
#     for N = 10^5, 100,010 for 10^6, 1,000,100 for 10^7.
#     Whole copies keep the nesting of the ranges intact.
#
# Copy c is shifted in time by c * (span of the copied rows + 1 us), so every
# copy starts after the previous one ended and each table stays sorted by
# start; correlation ids, gridId and rangeId are shifted by c * (their maximum
# + 1), so each kernel still correlates with exactly its own launch call.
# Memory copies, GPU metrics, OS runtime and the other event tables are left
# empty.
#
# Environment:
#   BENCH_FIXTURE  the export to replicate
#                  (default tests/data/nsys/v2025.3_h100_probe.sqlite in this tree)
#   NVTX_DIVISOR   kernels per NVTX range (default 10)
#
# The file is written next to OUT and renamed into place when complete, so an
# interrupted run never leaves a truncated OUT behind.

set -eu
set -o pipefail

usage ()
{
  echo "usage: $0 N OUT.sqlite   (N = number of kernels, >= 1)" >&2
  exit 2
}

[ "$#" -eq 2 ] || usage
n="$1"
out="$2"
case "$n" in
  '' | *[!0-9]*) usage ;;
esac
[ "$n" -ge 1 ] || usage

fixture="${BENCH_FIXTURE:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/nsys/v2025.3_h100_probe.sqlite}"
nvtx_divisor="${NVTX_DIVISOR:-10}"
case "$nvtx_divisor" in
  '' | *[!0-9]* | 0) echo "$0: NVTX_DIVISOR must be a positive integer" >&2; exit 2 ;;
esac

command -v sqlite3 >/dev/null 2>&1 || { echo "$0: the sqlite3 command-line tool is needed" >&2; exit 1; }
[ -r "$fixture" ] || { echo "$0: cannot read the fixture $fixture (set BENCH_FIXTURE)" >&2; exit 1; }

# A read-only, immutable SQLite URI for a path (as the reader opens files):
# '%', '?', '#' and "'" are percent-encoded, so it also fits in a SQL string.
ro_uri ()
{
  printf 'file:%s?mode=ro&immutable=1' "$(printf '%s' "$1" | sed "s/%/%25/g; s/?/%3f/g; s/#/%23/g; s/'/%27/g")"
}

src_uri=$(ro_uri "$fixture")

# SELECT list copying every column of TABLE from alias A, with the named
# columns replaced by expressions ("col=expr" arguments).  Built from the
# fixture's own PRAGMA table_info so that the column order is the real one.
select_list ()
{
  local table="$1" alias="$2" case_sql="" kv
  shift 2
  for kv in "$@"; do
    case_sql="$case_sql WHEN '${kv%%=*}' THEN '${kv#*=}'"
  done
  sqlite3 "$src_uri" "SELECT group_concat(e, ', ') FROM (SELECT CASE name $case_sql
                        ELSE '$alias.\"' || name || '\"' END AS e
                      FROM pragma_table_info('$table') ORDER BY cid);"
}

kernel_cols=$(select_list CUPTI_ACTIVITY_KIND_KERNEL k \
  'start=k.start + c * p.span' 'end=k.end + c * p.span' \
  'correlationId=k.correlationId + c * p.corr_step' \
  'gridId=k.gridId + c * p.grid_step')
runtime_cols=$(select_list CUPTI_ACTIVITY_KIND_RUNTIME r \
  'start=r.start + c * p.span' 'end=r.end + c * p.span' \
  'correlationId=r.correlationId + c * p.corr_step')
nvtx_cols=$(select_list NVTX_EVENTS v \
  'start=v.start + c * p.span' 'end=v.end + c * p.span' \
  'rangeId=v.rangeId + c * p.range_step')

# Tables first, then indexes, views and triggers, in the fixture's order.
schema=$(sqlite3 "$src_uri" "SELECT sql || ';' FROM sqlite_master
                             WHERE sql IS NOT NULL AND name NOT GLOB 'sqlite_*'
                             ORDER BY type <> 'table', rowid;")
copies=$(sqlite3 "$src_uri" "SELECT 'INSERT INTO main.\"' || name || '\" SELECT * FROM src.\"' || name || '\";'
                             FROM sqlite_master WHERE type = 'table' AND (
                               name IN ('StringIds', 'ThreadNames', 'PROCESSES',
                                        'META_DATA_EXPORT', 'META_DATA_CAPTURE')
                               OR name GLOB 'TARGET_INFO_*' OR name GLOB 'ENUM_*');")

out_dir=$(dirname -- "$out")
mkdir -p -- "$out_dir"
tmp="$out.tmp.$$"
trap 'rm -f -- "$tmp"' EXIT
rm -f -- "$tmp"

t0=$(date +%s.%N)
sqlite3 -bail "$tmp" >/dev/null <<SQL
PRAGMA page_size = 4096;
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;
PRAGMA temp_store = MEMORY;
ATTACH '$src_uri' AS src;

BEGIN;
$schema
$copies

-- The fixture's kernels in start order, and the launch call of each.
CREATE TEMP TABLE bk AS
  SELECT row_number() OVER (ORDER BY start, rowid) - 1 AS rank, rowid AS rid, correlationId AS corr
  FROM src.CUPTI_ACTIVITY_KIND_KERNEL ORDER BY 1;
CREATE TEMP TABLE br AS
  SELECT bk.rank AS rank, r.rowid AS rid
  FROM src.CUPTI_ACTIVITY_KIND_RUNTIME r JOIN bk ON bk.corr = r.correlationId
  ORDER BY r.start, r.rowid;
CREATE TEMP TABLE bv AS
  SELECT rowid AS rid FROM src.NVTX_EVENTS ORDER BY start, rowid;

CREATE TEMP TABLE p AS
  SELECT $n AS n,
         kpc,
         ($n + kpc - 1) / kpc AS ncopies,
         max(nranges, 1) * $nvtx_divisor AS nvtx_period,
         (SELECT max(e) - min(s) + 1000 FROM (
            SELECT start AS s, end AS e FROM src.CUPTI_ACTIVITY_KIND_KERNEL
            UNION ALL SELECT r.start, r.end FROM src.CUPTI_ACTIVITY_KIND_RUNTIME r JOIN br ON br.rid = r.rowid
            UNION ALL SELECT start, coalesce(end, start) FROM src.NVTX_EVENTS)) AS span,
         (SELECT max(m) + 1 FROM (
            SELECT max(correlationId) AS m FROM src.CUPTI_ACTIVITY_KIND_KERNEL
            UNION ALL SELECT max(correlationId) FROM src.CUPTI_ACTIVITY_KIND_RUNTIME)) AS corr_step,
         (SELECT max(gridId) + 1 FROM src.CUPTI_ACTIVITY_KIND_KERNEL) AS grid_step,
         (SELECT coalesce(max(rangeId), 0) + 1 FROM src.NVTX_EVENTS) AS range_step
  FROM (SELECT (SELECT count(*) FROM src.CUPTI_ACTIVITY_KIND_KERNEL) AS kpc,
               (SELECT count(*) FROM src.NVTX_EVENTS WHERE end IS NOT NULL) AS nranges);

-- CROSS JOIN fixes the loop order in SQLite: copies outside, fixture rows
-- inside, so rows are written already sorted by start with no sorter pass.
INSERT INTO main.CUPTI_ACTIVITY_KIND_KERNEL
  WITH RECURSIVE copies(c) AS (
    SELECT 0 UNION ALL SELECT c + 1 FROM copies, p WHERE c + 1 < p.ncopies)
  SELECT $kernel_cols
  FROM copies CROSS JOIN p CROSS JOIN bk CROSS JOIN src.CUPTI_ACTIVITY_KIND_KERNEL k
  WHERE k.rowid = bk.rid AND c * p.kpc + bk.rank < p.n;

INSERT INTO main.CUPTI_ACTIVITY_KIND_RUNTIME
  WITH RECURSIVE copies(c) AS (
    SELECT 0 UNION ALL SELECT c + 1 FROM copies, p WHERE c + 1 < p.ncopies)
  SELECT $runtime_cols
  FROM copies CROSS JOIN p CROSS JOIN br CROSS JOIN src.CUPTI_ACTIVITY_KIND_RUNTIME r
  WHERE r.rowid = br.rid AND c * p.kpc + br.rank < p.n;

-- Copy c carries NVTX when the running total of kernels, rounded up to a
-- multiple of nvtx_period (ranges per copy * NVTX_DIVISOR), grows: copy 0
-- always does, the others are evenly spread, and there are
-- ceil(N / nvtx_period) copies in all, about one range per NVTX_DIVISOR kernels.
INSERT INTO main.NVTX_EVENTS
  WITH RECURSIVE copies(c) AS (
    SELECT 0 UNION ALL SELECT c + 1 FROM copies, p WHERE c + 1 < p.ncopies)
  SELECT $nvtx_cols
  FROM copies CROSS JOIN p CROSS JOIN bv CROSS JOIN src.NVTX_EVENTS v
  WHERE v.rowid = bv.rid
    AND (min((c + 1) * p.kpc, p.n) + p.nvtx_period - 1) / p.nvtx_period
        > (c * p.kpc + p.nvtx_period - 1) / p.nvtx_period;
COMMIT;
DETACH src;
SQL
t1=$(date +%s.%N)

mv -f -- "$tmp" "$out"
trap - EXIT

counts=$(sqlite3 "$(ro_uri "$out")" \
  "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) || ' kernels, '
       || (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME) || ' runtime rows, '
       || (SELECT count(*) FROM NVTX_EVENTS WHERE end IS NOT NULL) || ' NVTX ranges, '
       || (SELECT count(*) FROM NVTX_EVENTS WHERE end IS NULL) || ' NVTX marks';")
size=$(stat -c %s -- "$out")
awk -v t0="$t0" -v t1="$t1" -v c="$counts" -v s="$size" -v f="$out" 'BEGIN {
  printf "gen-export: %s: %s; %.1f MB in %.1f s\n", f, c, s / 1e6, t1 - t0 > "/dev/stderr" }'

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plants one deliberate mistake at a time in the analyses that matter most
and checks that a test fails on it.

Each mutation below is a change of one place in src/ (an off-by-one, a
swapped rank, a dropped row, a threshold moved), with the tests that must
catch it. For each: the file is changed, the build dir rebuilt, those
tests run; the file is then put back byte for byte (also on Ctrl+C or an
error) and the tree rebuilt at the end. A mutation whose tests all pass
was caught by no test: it is reported, and the exit status is 1.

Usage: tests/mutate.py BUILDDIR [NAME...]   (default: every mutation)
       tests/mutate.py --check
Not part of `meson test` (each mutation rebuilds): run it by hand after
changing an analysis or its tests; the README says how long it takes.
A test that runs past TIMEOUT_S counts as not catching it.

--check (in the suite, test `mutations-apply`) only checks that every
mutation still applies: its text is in its file exactly once and each of
its tests is a test of tests/meson.build.  It changes nothing.
"""
import os
import subprocess
import sys
import re
import time

TIMEOUT_S = 600

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, file, text as it is (exactly once in the file), text planted,
# meson tests that must catch it.
MUTATIONS = [
    ("summary drops a row", "src/analysis/ws-stats.c",
     "  for (gsize i = 0; i < n; i++)\n    {\n      /* The total saturates",
     "  for (gsize i = 1; i < n; i++)\n    {\n      /* The total saturates",
     ["stats"]),
    ("summary total off by one", "src/analysis/ws-stats.c",
     "  out->total = total;\n",
     "  out->total = total + 1;\n",
     ["stats"]),
    ("first step not warm-up", "src/analysis/ws-steps.c",
     "    out[index[0]] = WS_WARMUP_FIRST;\n",
     "    out[index[0]] = WS_WARMUP_NONE;\n",
     ["steps"]),
    ("a steady span joins across a warm-up step", "src/analysis/ws-steps.c",
     "      if (spans->len > 0 && s->start <= g_array_index (spans, WsSpan, spans->len - 1).end)\n",
     "      if (spans->len > 0)\n",
     ["steps", "cli-steps"]),
    ("NVTX range holds a call ending 1 us after it", "src/model/ws-nvtx-join.c",
     "          if (nv->end[r] >= ce)\n",
     "          if (nv->end[r] + 1000 >= ce)\n",
     ["nvtx-gpu"]),
    ("NVTX projection ends one ns early", "src/analysis/ws-nvtx-gpu.c",
     "      self->proj_end[r] = MAX (self->proj_end[r], last);\n",
     "      self->proj_end[r] = MAX (self->proj_end[r], last - 1);\n",
     ["nvtx-gpu"]),
    ("ncu join ignores launch order", "src/ncu/ws-ncu-match.c",
     "  *picked = g_array_index (fits, Fit, before % fits->len).id;\n",
     "  *picked = g_array_index (fits, Fit, (before + 1) % fits->len).id;\n",
     ["ncu-match"]),
    ("mixed verdict gap moved", "src/ncu/ws-bottleneck.h",
     "#define WS_BOTTLENECK_GAP 10.0",
     "#define WS_BOTTLENECK_GAP 20.0",
     ["ncu-gauges", "verdict-agreement", "why"]),
    ("busy threshold moved", "src/ncu/ws-bottleneck.h",
     "#define WS_BOTTLENECK_BUSY 60.0",
     "#define WS_BOTTLENECK_BUSY 50.0",
     ["ncu-gauges", "verdict-agreement", "why"]),
    ("collective arrivals not aligned", "src/ranks/ws-rank-set.c",
     "      arrival[r] = matched_call (self, bounds, r, pair)->start + self->align[r];\n",
     "      arrival[r] = matched_call (self, bounds, r, pair)->start;\n",
     ["collectives"]),
    ("the first arrival taken for the last", "src/ranks/ws-rank-set.c",
     "      if (arrival[r] > arrival[last])\n",
     "      if (arrival[r] < arrival[last])\n",
     ["collectives"]),
    ("host straggler lateness off by one", "src/ranks/ws-rank-set.c",
     "        out.late = most - others_median (self, out.number, (guint) out.last);\n",
     "        out.late = most - others_median (self, out.number, (guint) out.last) + 1;\n",
     ["ranks", "ddp-gloo", "digest"]),
    ("NCCL lateness 1 us long", "src/ranks/ws-rank-set.c",
     "      late = step->caused != NULL ? step->lead[best]\n",
     "      late = step->caused != NULL ? step->lead[best] + 1000\n",
     ["one-export-job", "nccl-jobs", "straggler-cost"]),
    ("a range's time on the host only", "src/ranks/ws-rank-measure.c",
     "                              gpu != NULL ? ws_nvtx_gpu_projection (gpu, r) : 0));\n",
     "                              0));\n",
     ["one-export-job", "nccl-jobs"]),
    # Readers: a reversed time span kept as it is instead of ending at its start.
    ("reader keeps an end before its start", "src/formats/ws-nsys-reader.c",
     "      *end = *start;\n      r->n_reversed++;\n",
     "      r->n_reversed++;\n",
     ["extremes", "bad-input"]),
    # Readers: a graph replay of the graph-level trace ends where it starts.
    ("graph replay read without its end", "src/formats/ws-nsys-graphs.c",
     "  if (!ws_nsys_column_times (r, stmt, 0, &g->start[i], &g->end[i]))\n",
     "  if (!ws_nsys_column_times (r, stmt, 0, &g->start[i], &g->end[i]) || (g->end[i] = g->start[i], FALSE))\n",
     ["nsys-graphs", "graph-busy"]),
    # Loaders: a rank's clock offset dropped from its figures.
    ("rank figures lose their clock offset", "src/loader/ws-ranks-loader.c",
     "      figures->offset = rank->offset;\n",
     "      figures->offset = 0;\n",
     ["ranks", "nccl-jobs", "one-export-job"]),
    # The comparison: after and before swapped.
    ("comparison delta reversed", "src/analysis/ws-comparison.c",
     "      d->delta = ws_time_sub (d->after_total, d->before_total);\n",
     "      d->delta = ws_time_sub (d->before_total, d->after_total);\n",
     ["comparison"]),
    # The first frame: a sampled bin counted as if every row were read.
    ("first frame ignores its sampling share", "src/formats/ws-nsys-overview.c",
     "        sample->covered_ns[b] = reader->bin_ns * share;\n",
     "        sample->covered_ns[b] = reader->bin_ns * (share > 0 ? 1.0 : 0.0);\n",
     ["nsys-overview"]),
    # The digest: a merged summary row of several ranks keeps one rank's maximum.
    ("digest merge keeps the first rank's count", "src/digest/ws-digest-merge.c",
     "      row.count = acc->count;\n",
     "      row.count = acc->count / MAX (acc->ranks, 1);\n",
     ["digest", "cli-digest"]),
    # Findings: a kernel counted in its outermost range, not its innermost.
    ("findings place kernels in their outermost range", "src/findings/ws-findings.c",
     "      if (c == 0)\n        entry->own++;\n",
     "      if (c == n - 1)\n        entry->own++;\n",
     ["findings-nesting"]),
    # Findings: the short-kernel bound moved from 5 us to 50 us.
    ("short kernel bound moved", "src/findings/ws-findings-gpu.c",
     "#define TINY_KERNEL_NS 5000",
     "#define TINY_KERNEL_NS 50000",
     ["findings", "findings-nesting"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


def build(builddir):
    r = run(["ninja", "-C", builddir])
    if r.returncode != 0:
        sys.exit(f"mutate: the build fails:\n{r.stdout[-3000:]}")


def check():
    with open(os.path.join(ROOT, "tests", "meson.build"), encoding="utf-8") as f:
        tests = set(re.findall(r"^  '([a-z0-9-]+)': \{", f.read(), re.M))
    stale = 0
    for name, path, old, new, wanted in MUTATIONS:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            count = f.read().count(old)
        unknown = [t for t in wanted if t not in tests]
        if count != 1 or unknown or old == new:
            stale += 1
            print(f"STALE {name}: {path} holds its text {count} times"
                  + (f"; no such tests: {', '.join(unknown)}" if unknown else ""))
    print(f"{len(MUTATIONS) - stale} of {len(MUTATIONS)} mutations apply")
    return 1 if stale else 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--check":
        return check()
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    builddir = os.path.abspath(sys.argv[1])
    wanted = set(sys.argv[2:])
    chosen = [m for m in MUTATIONS if not wanted or m[0] in wanted]
    missed = []
    build(builddir)
    print(f"{'mutation':<40} {'file':<40} {'result':<10} tests")
    for name, path, old, new, tests in chosen:
        full = os.path.join(ROOT, path)
        with open(full, "rb") as f:
            original = f.read()
        text = original.decode()
        if text.count(old) != 1:
            print(f"{name:<40} {path:<40} {'STALE':<10} the text to change is not there once: "
                  "update tests/mutate.py")
            missed.append(name)
            continue
        start = time.monotonic()
        try:
            with open(full, "w") as f:
                f.write(text.replace(old, new))
            # Only what the tests run: their programs and the two binaries.
            targets = ["src/cli/warpscope-cli"] + [f"tests/test-{t}" for t in tests]
            if os.path.exists(os.path.join(builddir, "src/app/warpscope")):
                targets.append("src/app/warpscope")
            r = run(["ninja", "-C", builddir] + targets)
            if r.returncode != 0:
                result, failing = "NO BUILD", []
            else:
                failing = []
                for t in tests:
                    try:
                        tr = run(["meson", "test", "-C", builddir, "--no-rebuild", t],
                                 env=dict(os.environ, MESON_TESTTHREADS="1"), timeout=TIMEOUT_S)
                    except subprocess.TimeoutExpired:
                        result = "TIMEOUT"
                        break
                    # meson's own time limit: not caught either.
                    if re.search(r"^Timeout:\s+[1-9]", tr.stdout, re.M):
                        result = "TIMEOUT"
                        break
                    if tr.returncode != 0:
                        failing.append(t)
                else:
                    result = "caught" if failing else "MISSED"
        finally:
            with open(full, "wb") as f:
                f.write(original)
        if result != "caught":
            missed.append(name)
        took = time.monotonic() - start
        print(f"{name:<40} {path:<40} {result:<10} {', '.join(failing) if failing else ', '.join(tests)}"
              f" ({took:.0f} s)")
    run(["ninja", "-C", builddir])
    print(f"{len(chosen) - len(missed)} of {len(chosen)} planted mistakes caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

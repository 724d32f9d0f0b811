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
Not part of `meson test` (each mutation rebuilds): run it by hand after
changing an analysis or its tests; the README says how long it takes.
"""
import os
import subprocess
import sys
import time

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
     "          s->warmup = first || s->slow;\n",
     "          s->warmup = s->slow;\n",
     ["steps"]),
    ("NVTX range holds a call ending 1 us after it", "src/analysis/ws-nvtx-gpu.c",
     "          if (nv->end[r] >= ce)\n",
     "          if (nv->end[r] + 1000 >= ce)\n",
     ["nvtx-gpu"]),
    ("NVTX projection ends one ns early", "src/analysis/ws-nvtx-gpu.c",
     "  self->last[call] = MAX (self->last[call], end);\n",
     "  self->last[call] = MAX (self->last[call], end - 1);\n",
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
     "          arrival[r] = call->start + self->align[r];\n",
     "          arrival[r] = call->start;\n",
     ["collectives"]),
    ("the first arrival taken for the last", "src/ranks/ws-rank-set.c",
     "          if (arrival[r] > arrival[last])\n",
     "          if (arrival[r] < arrival[last])\n",
     ["collectives"]),
    ("host straggler lateness off by one", "src/ranks/ws-rank-set.c",
     "          out.late = most - others_median (self, out.number, (guint) out.last);\n",
     "          out.late = most - others_median (self, out.number, (guint) out.last) + 1;\n",
     ["ranks", "ddp-gloo", "digest"]),
    ("NCCL lateness summed over a step's buckets", "src/ranks/ws-rank-set.c",
     "          late = step->lead[best];\n",
     "          late = lost / (n - 1);\n",
     ["one-export-job", "nccl-jobs"]),
    ("a range's time on the host only", "src/ranks/ws-rank-measure.c",
     "                              gpu != NULL ? ws_nvtx_gpu_projection (gpu, r) : 0));\n",
     "                              0));\n",
     ["one-export-job", "nccl-jobs"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


def build(builddir):
    r = run(["ninja", "-C", builddir])
    if r.returncode != 0:
        sys.exit(f"mutate: the build fails:\n{r.stdout[-3000:]}")


def main():
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
                    tr = run(["meson", "test", "-C", builddir, "--no-rebuild", t],
                             env=dict(os.environ, MESON_TESTTHREADS="1"))
                    if tr.returncode != 0:
                        failing.append(t)
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

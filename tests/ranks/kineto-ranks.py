#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The straggler of a job's PyTorch profiler traces, from the JSON alone.

For tests/ranks/test-kineto-ranks.c (issue 33, item 3), written from the
definitions of docs/NOTES.md, not from src/: the ranks of one host share
the trace's clock (ts, CPU microseconds), so each rank's arrival at a
step's first NCCL all-reduce is its kernel's ts; a step belongs to the
kernel whose launch call (by correlation) lies inside `ProfilerStep#N`;
the step's last rank is the latest arrival, late by its arrival less the
median of the others'.  Prints, tab-separated:

    step  NAME  LAST_RANK  LATENESS_NS
    straggler  RANK  MEDIAN_LATENESS_NS
    range  NAME  RANK  MEDIAN_NS_PER_STEP    (each user_annotation inside the steps)
    device  RANK  DEVICES                    (the args.device of its kernels, copies and sets)
    gpus  N                                  (the job's distinct (host, device id) pairs)

A GPU is (host, device id) (docs/NOTES.md).  The traces name no host; the
GPUs a trace describes ("deviceProperties") stand for its host, so the
traces that describe the same GPUs are of one host.
"""
import gzip
import json
import statistics
import sys
from decimal import Decimal


def ns(value):
    return int(Decimal(str(value)) * 1000)


def read(path):
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        return json.load(f, parse_float=Decimal)


def rank_facts(path):
    d = read(path)
    ev = d["traceEvents"]
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]) for e in ev
                   if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#"))
    launch = {e["args"]["correlation"]: ns(e["ts"]) for e in ev
              if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    first = {}
    for e in sorted((e for e in ev if e.get("cat") == "kernel"
                     and e["name"].startswith("ncclDevKernel_AllReduce")), key=lambda e: ns(e["ts"])):
        t = launch.get(e["args"].get("correlation"))
        for s, end, name in steps:
            if t is not None and s <= t < end and name not in first:
                first[name] = ns(e["ts"])
    ranges = {}
    for e in ev:
        if e.get("cat") != "user_annotation" or e["name"].startswith("ProfilerStep#"):
            continue
        s = ns(e["ts"])
        for a, b, name in steps:
            if a <= s < b:
                ranges.setdefault(e["name"], {}).setdefault(name, 0)
                ranges[e["name"]][name] += ns(e["dur"])
    host = json.dumps(d.get("deviceProperties", []), sort_keys=True, default=str)
    devices = sorted({e["args"]["device"] for e in ev
                      if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")})
    pairs = {(host, g["id"]) for g in d.get("deviceProperties", [])} | {(host, x) for x in devices}
    return d["distributedInfo"]["rank"], first, ranges, devices, pairs


def main(paths):
    facts = sorted(rank_facts(p) for p in paths)
    steps = sorted(set().union(*(f[1].keys() for f in facts)), key=lambda n: int(n.split("#")[1]))
    lasts, lates = [], []
    for step in steps:
        arrivals = {r: first[step] for r, first, *_ in facts if step in first}
        last = max(arrivals, key=arrivals.get)
        others = [t for r, t in arrivals.items() if r != last]
        late = arrivals[last] - int(statistics.median(others))
        lasts.append(last)
        lates.append((last, late))
        print(f"step\t{step}\t{last}\t{late}")
    best = max(set(lasts), key=lasts.count)
    if lasts.count(best) * 3 >= len(lasts) * 2:
        print(f"straggler\t{best}\t{int(statistics.median(l for r, l in lates if r == best))}")
    for r, _, ranges, *_ in facts:
        for name, per_step in sorted(ranges.items()):
            print(f"range\t{name}\t{r}\t{int(statistics.median(per_step.values()))}")
    for r, _, _, devices, _ in facts:
        print(f"device\t{r}\t{','.join(str(x) for x in devices)}")
    print(f"gpus\t{len(set().union(*(f[4] for f in facts)))}")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lists every skipped test and subtest of a meson test run, with its reason.

meson reports a TAP program with one skipped subtest as "OK" and counts
"Skipped: 0"; this reads the run's testlog.json, where each test's TAP is
kept, and prints each skip: a whole test that exited 77, and each
"ok N PATH # SKIP reason" line, then the run's five slowest tests (a
test that nears its limit on a quiet machine fails on a loaded one). A skip is allowed only when
tests/skips-allowed.tsv names it (a shell pattern over "test" or
"test PATH", and why no machine of ours can avoid it): any other skip is
something the set-up should have prevented, and the exit status is 1.

Usage: test-summary.py STAGE TESTLOG.json ALLOWED.tsv
"""
import fnmatch
import json
import re
import sys

TAP_SKIP = re.compile(r"^ok \d+ (\S+)\s*# SKIP\s*(.*)$", re.IGNORECASE)


def read_allowed(path):
    allowed = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            pattern, _, why = line.partition("\t")
            allowed.append((pattern, why))
    return allowed


def skips_of(testlog):
    with open(testlog, encoding="utf-8") as f:
        for line in f:
            test = json.loads(line)
            name = test["name"].split(" / ", 1)[-1]
            out = test.get("stdout") or ""
            if test["result"] == "SKIP":
                last = [l for l in out.splitlines() if l.strip()]
                yield name, None, last[-1] if last else "exit status 77"
                continue
            for l in out.splitlines():
                m = TAP_SKIP.match(l.strip())
                if m:
                    yield name, m.group(1), m.group(2) or "(no reason given)"


def slowest_of(testlog, n=5):
    with open(testlog, encoding="utf-8") as f:
        tests = [json.loads(line) for line in f if line.strip()]
    tests.sort(key=lambda t: t.get("duration") or 0, reverse=True)
    return [(t["name"].split(" / ", 1)[-1], t.get("duration") or 0) for t in tests[:n]]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    stage, testlog, allowed_path = sys.argv[1:]
    try:
        allowed = read_allowed(allowed_path)
        skips = list(skips_of(testlog))
        slowest = slowest_of(testlog)
    except (OSError, ValueError, KeyError) as e:
        print(f"test-summary: {stage}: cannot read the test log or the allowed skips: {e}")
        return 1
    unexpected = 0
    print(f"== {stage}: slowest " +
          ", ".join(f"{name} {seconds:.0f} s" for name, seconds in slowest))
    print(f"== {stage}: {len(skips)} skipped")
    for name, path, reason in skips:
        what = name if path is None else f"{name} {path}"
        ok = any(fnmatch.fnmatchcase(what, p) for p, _ in allowed)
        if not ok:
            unexpected += 1
        mark = "allowed" if ok else "NOT ALLOWED"
        print(f"   SKIP {what}: {reason} [{mark}]")
    if unexpected:
        print(f"!! {stage}: {unexpected} skip(s) that the set-up should have prevented "
              f"(build-aux/warpscope-dev installs what tests need; "
              f"{allowed_path} lists the skips no machine of ours can avoid)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

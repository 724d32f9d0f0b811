#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The promises of the README, the man page and docs/, and the tests that
check them (tests/promises.tsv).

Fails when a test path the list names is not registered by any
tests/**/*.c (a g_test_add* call, or a macro defined over one); prints the
promises that no test checks yet, and their count.  With --strict, a
promise without a test fails too.

Usage: check-promises.py [--strict] SOURCE_ROOT
"""

import pathlib
import re
import sys

# A C string literal, possibly split over adjacent literals.
LITERAL = r'"((?:[^"\\]|\\.)*)"((?:\s*"(?:[^"\\]|\\.)*")*)'


def registered_paths(tests_dir):
    """Every test path that a tests/**/*.c registers."""
    paths = set()
    for source in sorted(tests_dir.glob('**/*.c')):
        text = source.read_text(encoding='utf-8')
        callers = ['g_test_add[A-Za-z_]*']
        # Macros that wrap g_test_add (#define ADD(path, func) g_test_add (path, …)).
        for m in re.finditer(r'#define\s+(\w+)\s*\([^)]*\)[^\n]*g_test_add', text):
            callers.append(re.escape(m.group(1)))
        pattern = re.compile(r'\b(?:%s)\s*\(\s*%s' % ('|'.join(callers), LITERAL))
        for m in pattern.finditer(text):
            path = m.group(1)
            for rest in re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)):
                path += rest
            paths.add(path)
    return paths


def read_promises(tsv):
    """(line number, where, promise, [test paths]) for each row."""
    rows = []
    for number, line in enumerate(tsv.read_text(encoding='utf-8').splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        cells = line.split('\t')
        if len(cells) != 3:
            sys.exit('%s:%d: expected 3 tab-separated columns (where, promise, tests), found %d'
                     % (tsv, number, len(cells)))
        where, promise, tests = (c.strip() for c in cells)
        paths = [] if tests == '-' else tests.split()
        rows.append((number, where, promise, paths))
    return rows


def main():
    args = sys.argv[1:]
    strict = '--strict' in args
    args = [a for a in args if a != '--strict']
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[-1])
    root = pathlib.Path(args[0])
    tsv = root / 'tests' / 'promises.tsv'
    known = registered_paths(root / 'tests')
    rows = read_promises(tsv)

    missing = []
    for number, where, promise, paths in rows:
        for path in paths:
            if path not in known:
                missing.append('%s:%d: %s: no test registers %s' % (tsv, number, where, path))
    untested = [(number, where, promise) for number, where, promise, paths in rows if not paths]

    print('%d promises, %d with a test, %d without' % (len(rows), len(rows) - len(untested),
                                                      len(untested)))
    for number, where, promise in untested:
        print('no test: %s: %s (%s:%d)' % (where, promise, tsv.name, number))
    for line in missing:
        print(line, file=sys.stderr)
    if missing:
        return 1
    if strict and untested:
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

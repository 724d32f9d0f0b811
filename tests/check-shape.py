#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The size rules of docs/ARCHITECTURE.md ("Rooms and functions"), as a test.

- No folder of src/ holds more than MAX_FILES .c files: a folder is one
  library, and a library of more is split by idea.
- No function of src/ runs over MAX_LINES lines, counted from the line of
  its opening brace (at column 0) to that of its closing brace.
- The tests of a library are in tests/LIBRARY/, named test-*.c; tests/
  itself holds the shared helpers and the checks that span the tree.

Each breach is printed as FILE[:LINE] with what is over; the exit status
is then 1.

Usage: check-shape.py SOURCE_ROOT
"""

import os
import re
import sys

MAX_FILES = 25
MAX_LINES = 120

NAME = re.compile(r'^\s*(?:[\w\s\*]*?\b)?(\w+)\s*\(')


def functions(path):
    """(name, first line, length) of each function defined in @path."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    found = []
    start = None
    for i, line in enumerate(lines):
        if line.startswith('{') and start is None:
            start = i
            j = i - 1
            while j > 0 and '(' not in lines[j]:
                j -= 1
            m = NAME.match(lines[j])
            name = m.group(1) if m else lines[j].strip()
        elif line.startswith('}') and start is not None:
            # A struct or an initialiser closes with '};' or '} Name;'.
            if not line.rstrip().endswith(';'):
                found.append((name, start + 1, i - start + 1))
            start = None
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = sys.argv[1]
    src = os.path.join(root, 'src')
    problems = []
    n_functions = 0
    for lib in sorted(os.listdir(src)):
        folder = os.path.join(src, lib)
        if not os.path.isdir(folder):
            continue
        sources = sorted(n for n in os.listdir(folder) if n.endswith('.c'))
        if len(sources) > MAX_FILES:
            problems.append('src/%s: %d .c files, more than %d: split it by idea'
                            % (lib, len(sources), MAX_FILES))
        for name in sources:
            for function, line, length in functions(os.path.join(folder, name)):
                n_functions += 1
                if length > MAX_LINES:
                    problems.append('src/%s/%s:%d: %s() is %d lines, more than %d'
                                    % (lib, name, line, function, length, MAX_LINES))
    tests = os.path.join(root, 'tests')
    for name in sorted(os.listdir(tests)):
        if name.startswith('test-') and name.endswith('.c'):
            problems.append('tests/%s: a test belongs in the folder of the library it tests'
                            % name)
    for problem in problems:
        print(problem)
    if problems:
        print('%d breach(es) of the size rules' % len(problems))
        return 1
    print('%d functions in %s follow the size rules' % (n_functions, src))
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every path the documentation names exists in the tree.

Reads README.md and docs/*.md (or the Markdown files given) and checks:

- every relative Markdown link, [text](target) and [label]: target, against
  the folder of the file that holds it (a #fragment is dropped; web links
  and links within the page are not checked);
- every backticked repository path, such as `src/base/ws-csv.c` or
  `tests/data/`, against the repository root.  A code span counts as a path
  when it has no spaces and starts with a top-level entry of the
  repository (src/, tests/, docs/, …).  Globs (`data/ui/*.ui`) must match
  something; braces (`{nsys,ncu}`) are expanded.  Placeholders (`…`, `<x>`,
  and the upper-case words of PLACEHOLDERS, as in `tests/test-cli-NAME.c`)
  are not paths and are skipped.
- every backticked file name without a folder that ends like a source file
  (`ws-csv.c`, `check-layers.py`, `ws-window.ui`), against the names of
  the files in the tree: it must name one of them somewhere.  Headers
  whose names do not start with `ws-` are outside headers (`sqlite3.h`,
  the generated `config.h`), and NOT_IN_TREE lists the names of the files
  that users, captures and gate reports make (`targets.tsv`, `gate.md`):
  neither is checked.

Fenced code blocks are skipped: they show commands and outputs, not the
tree.  Each missing path is printed as FILE:LINE: what it names; the exit
status is then 1.

Usage: check-doc-links.py [REPO_ROOT [FILE.md…]]
"""

import glob
import os
import re
import sys

# Upper-case words that stand for a name in a path pattern.
PLACEHOLDERS = {'NAME', 'KIND', 'FILE', 'KERNEL', 'BASE', 'OUT', 'OUT_DIR', 'GROUP', 'TARGET',
                'X', 'N'}

LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFERENCE = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$')
CODE = re.compile(r'(`+)(.+?)\1')
FENCE = re.compile(r'^\s*(```|~~~)')


def top_level(root):
    """The names a repository path may start with."""
    return {name for name in os.listdir(root) if not name.startswith('.')}


def expand_braces(path):
    """`a/{b,c}/d` → a/b/d, a/c/d."""
    m = re.search(r'\{([^{}]*)\}', path)
    if not m:
        return [path]
    out = []
    for part in m.group(1).split(','):
        out.extend(expand_braces(path[:m.start()] + part + path[m.end():]))
    return out


def is_placeholder(path):
    if any(mark in path for mark in ('…', '...', '<', '>', '$', '%')):
        return True
    words = re.split(r'[/._-]', path)
    return any(word in PLACEHOLDERS for word in words)


def exists(root, path):
    """Whether @path (relative to @root) names something, globs included."""
    full = os.path.join(root, path)
    if any(c in path for c in '*?['):
        return bool(glob.glob(full))
    return os.path.exists(full)


# Files the documentation names that live outside the tree: the user's and
# a capture's files.
NOT_IN_TREE = {'targets.tsv', 'run.json', 'capture.log', 'gate.xml', 'gate.md'}

# File names the tree must hold somewhere, when written without a folder.
SOURCE_NAME = re.compile(r'^[A-Za-z0-9_.-]+\.(c|h|py|sh|ui|xml|in|build|md|tsv|po)$')


def names_in_tree(root):
    names = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith('.') and d not in ('build', '_build')]
        names.update(files)
    return names


def code_path(span, tops):
    """The repository path a code span names, or None."""
    span = span.strip()
    if not span or any(c.isspace() for c in span):
        return None
    if span.startswith('./'):
        span = span[2:]
    # FILE:LINE and FILE:LINE:COL are paths too.
    span = re.sub(r'(:\d+)+:?$', '', span)
    first = span.split('/', 1)[0]
    if first not in tops:
        return None
    if '/' not in span and not os.path.splitext(span)[1] and first != span:
        return None
    return span


def check_file(root, md, tops, names):
    missing = []
    folder = os.path.dirname(os.path.join(root, md))
    in_fence = False
    with open(os.path.join(root, md), encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            targets = [m.group(1) for m in LINK.finditer(line)]
            m = REFERENCE.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I) or target.startswith('#'):
                    continue
                path = target.split('#', 1)[0]
                if not path:
                    continue
                full = os.path.normpath(os.path.join(folder, path))
                if not os.path.exists(full):
                    missing.append((number, 'link', target))
            for m in CODE.finditer(line):
                span = m.group(2).strip()
                if SOURCE_NAME.match(span) and not is_placeholder(span):
                    outside = span.endswith('.h') and not span.startswith('ws-')
                    if span not in names and not outside and span not in NOT_IN_TREE:
                        missing.append((number, 'file name', span))
                    continue
                path = code_path(span, tops)
                if path is None or is_placeholder(path):
                    continue
                if not any(exists(root, p) for p in expand_braces(path)):
                    missing.append((number, 'path', path))
    return missing


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    files = sys.argv[2:]
    if not files:
        files = ['README.md'] + sorted(
            os.path.relpath(p, root) for p in glob.glob(os.path.join(root, 'docs', '*.md')))
    tops = top_level(root)
    names = names_in_tree(root)
    bad = 0
    for md in files:
        for number, kind, what in check_file(root, md, tops, names):
            print(f'{md}:{number}: {kind} {what} does not exist')
            bad += 1
    if bad:
        print(f'{bad} missing', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
